import type { BuildNote } from '../errors.js';
import type { CrdsFile } from '../pipeline/custom-resource-types.js';
import { DecodedTexts } from '../encoding/decoded-texts.js';
import type { FileSystem } from '../fs/filesystem.js';
import type { InputRecord, RecordingFileSystem } from '../fs/recording-fs.js';
import type { BuildMemory } from '../pipeline/context.js';
import { PrintedBefore } from '../output/printed-before.js';
import type { Rendered } from '../output/render.js';
import { checkOptionNames, OPTION_NAMES, optionNames, type ResolvedOptions } from '../options.js';
import { ParsedTexts } from '../yaml/parsed-texts.js';
import { SizedLru } from '../memo/sized-lru.js';
import { RememberedBases } from './remembered-bases.js';
import { estimatedBytesOfText } from '../yaml/value.js';

/** The options that name a build, with its path and file system: all but those that are objects the caller made. */
const KEYED_OPTIONS = OPTION_NAMES.filter((name) => name !== 'fs' && name !== 'remote' && name !== 'warn');

/** How much a {@link BuildCache} holds at most; the least recently used goes first. */
export interface BuildCacheLimits {
  /**
   * bytes it holds, as it estimates them from the lengths of its texts and outputs and the shape of its bases (default 256 MiB):
   * half for builds with their output and bases, a quarter each for resource files and
   * patches parsed and for their texts
   */
  bytes?: number;
  /** builds remembered, with their bases (default: as many as the bytes allow) */
  builds?: number;
}

const LIMIT_NAMES = optionNames<BuildCacheLimits>({ bytes: true, builds: true });

/** What the cache keeps of the builds of one name: the last, when its files decided it, and the bases it read. */
interface Remembered {
  build?: RememberedBuild;
  bases: RememberedBases;
}

/** A build that read only what its file system answers, with what it made. */
export interface RememberedBuild extends Readonly<Rendered> {
  /** the directory it built */
  buildDir: string;
  inputs: InputRecord;
  /** its warnings and notices, in the order given */
  warnings: readonly BuildNote[];
  /** the `crds:` files it read */
  crds: readonly CrdsFile[];
}

/**
 * What the cache knows of a build: its answer, when its files read as before; else what it
 * printed last time, if anything, and the bases it remembers from the builds of that name.
 */
type Recalled = { answer: RememberedBuild } | { answer?: undefined; printedBefore: PrintedBefore | undefined; bases: RememberedBases };

/**
 * What a caller that builds the same trees again and again (an editor, a UI, a server) keeps
 * between builds, passed as the `cache` option. A build whose every file reads the same as
 * when a remembered build read it, with the same options, is that build's output again; any
 * other build takes each base whose files read as before from the last build of that name
 * (see {@link RememberedBases}), decodes and parses only the resource files it has not seen with
 * that content, and prints again only the resources that differ from what that build printed. Builds that
 * ran anything besides builtins and Compositions (plugins, functions, helm) or fetched
 * remote bases are never remembered: what they make depends on more than the files.
 * What a build returns is its own: the cache keeps copies.
 */
export class BuildCache {
  /** by the name of a build (see {@link keyOf}) */
  private readonly builds: SizedLru<string, Remembered>;
  /** resource files and the texts steps read (patches…), by content */
  private readonly parsed: ParsedTexts;
  /** resource files' texts, by path, while their bytes stay the same */
  private readonly decoded: DecodedTexts;
  /** a number for each file system callers gave, so keys tell them apart */
  private readonly fileSystems = new WeakMap<FileSystem, number>();
  private fileSystemCount = 0;
  private answeredCount = 0;
  private builtCount = 0;
  private readonly reusedBases = { count: 0 };
  constructor(limits: BuildCacheLimits = {}) {
    checkOptionNames(limits, LIMIT_NAMES, 'new BuildCache()');
    const bytes = limits.bytes ?? 256 * 2 ** 20;
    this.builds = new SizedLru(bytes / 2, (key, kept) => 2 * key.length + kept.bases.bytes + (kept.build ? buildBytes(kept.build) : 0), limits.builds);
    this.parsed = new ParsedTexts(bytes / 4);
    this.decoded = new DecodedTexts(bytes / 4);
  }

  /** The bytes it holds, as it estimates them. */
  get bytes(): number {
    return this.builds.size + this.parsed.bytes + this.decoded.bytes;
  }

  /** Forgets everything. */
  clear(): void {
    this.builds.clear();
    this.parsed.clear();
    this.decoded.clear();
  }

  /** How many builds the cache answered, how many it could not (they ran), and how many bases those took from it instead of building them. */
  get counts(): { answered: number; built: number; reusedBases: number } {
    return { answered: this.answeredCount, built: this.builtCount, reusedBases: this.reusedBases.count };
  }

  /** What names a build: its path, its options, and its file system when the caller gave one. */
  keyOf(path: string, options: ResolvedOptions, fs: FileSystem | undefined): string {
    let fsId = 0;
    // a view of a file system (a memo, a part) answers as it does: the same files, under the same name
    while (fs?.viewOf) fs = fs.viewOf;
    if (fs) {
      fsId = this.fileSystems.get(fs) ?? ++this.fileSystemCount;
      this.fileSystems.set(fs, fsId);
    }
    return JSON.stringify([fsId, path, KEYED_OPTIONS.map((name) => options[name])]);
  }

  /** The remembered build of that name if `fs` still holds what it read; else what it printed, for the build that runs instead. */
  recall(key: string, fs: FileSystem): Recalled {
    const kept = this.builds.get(key);
    const remembered = kept?.build;
    if (!remembered?.inputs.holdsIn(fs)) {
      const bases = kept?.bases ?? new RememberedBases(this.reusedBases);
      this.builds.set(key, { bases });
      this.builtCount++;
      return { printedBefore: remembered && new PrintedBefore(remembered), bases };
    }
    this.answeredCount++;
    return { answer: remembered };
  }

  /** What the cache lends a build that runs: what it has parsed, and `bases`, whose files it asks of `recording`. */
  memory(bases: RememberedBases, recording: RecordingFileSystem): BuildMemory {
    return {
      resourceText: (path, bytes) => this.decoded.text(path, bytes),
      resourceDocuments: (text, file) => this.parsed.sharedDocuments(text, file),
      stepDocuments: (text, file, options) => this.parsed.documents(text, file, options),
      accumulateBase: (key, build, accumulate) => bases.accumulate(key, recording, build, accumulate),
    };
  }

  /**
   * What a build that ran leaves: its bases (measured again, now that it has remembered them),
   * and itself when its files decided it.
   */
  remember(key: string, bases: RememberedBases, build: RememberedBuild | undefined): void {
    this.builds.set(key, { bases, ...(build && { build }) });
  }
}

/** About what a remembered build takes: its output, and its resources (estimated from the output they print as). */
function buildBytes(build: RememberedBuild): number {
  return 2 * build.buildDir.length + build.yaml.length + estimatedBytesOfText(build.yaml.length, build.resources.length);
}
