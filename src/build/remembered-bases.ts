import type { BuildNote } from '../errors.js';
import type { TransformerConfig } from '../fieldspec/transformer-config.js';
import type { InputRecord, RecordingFileSystem } from '../fs/recording-fs.js';
import { Resource } from '../model/resource.js';
import type { VarSet } from '../vars/vars.js';
import { estimatedBytes, type YMap } from '../yaml/value.js';
import { Accumulator } from '../pipeline/accumulator.js';
import type { BaseEffects } from '../pipeline/context.js';
import type { CrdsFile } from '../pipeline/custom-resource-types.js';

/** What a build made of one base (a kustomization a `resources:` entry names), and what it took to make it. */
interface RememberedBase {
  /** the questions its accumulation asked the file system, with their answers */
  inputs: InputRecord;
  /** the build's schema setting when the base started, and when it was done (see `OpenApiSchemaSetting.state`) */
  start: string;
  end: string;
  /** its warnings and notices */
  warnings: readonly BuildNote[];
  config: TransformerConfig;
  crds: readonly CrdsFile[];
  vars: VarSet;
  resources: readonly RememberedResource[];
  /** what it holds, as {@link estimatedBytes} counts it */
  bytes: number;
}

/** A resource a base made: its object, frozen (see `Resource.share`), and its build state, in a resource no build writes. */
interface RememberedResource {
  obj: YMap;
  state: Resource;
}

/**
 * The bases a {@link BuildCache} remembers from the last build of one tree, by where each sits
 * in the tree. A build after an edit takes a base whose files all read as before, and which
 * starts from the same schema setting, from here instead of accumulating it again: an edit to
 * an overlay leaves its bases alone. A base that ran anything but builtins and Compositions is
 * not remembered; nor is one in a fetched tree (the caller leaves those out).
 */
export class RememberedBases {
  private readonly bases = new Map<string, RememberedBase>();
  private held = 0;

  /** `reused` counts the bases taken from here (the cache's counts) */
  constructor(private readonly reused: { count: number }) {}

  /** The bytes of the bases remembered, as estimated. */
  get bytes(): number {
    return this.held;
  }

  /**
   * The base at `key` (the caller's name for its place in the tree), remembered or accumulated by
   * `accumulate`, for a build that reads through `recording` and whose state is `build`.
   */
  async accumulate(key: string, recording: RecordingFileSystem, build: BaseEffects, accumulate: () => Promise<Accumulator>): Promise<Accumulator> {
    const start = build.openapi.state;
    const kept = this.bases.get(key);
    // asked through the build's record, the questions become the build's own (and its enclosing bases')
    if (kept && kept.start === start && recording.holds(kept.inputs)) {
      for (const m of kept.warnings) build.warn(m);
      build.openapi.restore(kept.end);
      this.reused.count++;
      return replay(kept);
    }
    this.forget(key);
    const scope = recording.openScope();
    const decidedBefore = build.filesDecide;
    const warnings: BuildNote[] = [];
    let acc: Accumulator;
    let inputs: InputRecord;
    let decides: boolean;
    build.filesDecide = true;
    try {
      acc = await build.noteWarnings(warnings, accumulate);
    } finally {
      inputs = scope.close();
      decides = build.filesDecide;
      build.filesDecide = decidedBefore && decides;
    }
    const end = build.openapi.state;
    if (decides && start !== undefined && end !== undefined) {
      const resources = acc.resources.resources().map(remembered);
      const bytes = resources.reduce((n, r) => n + resourceBytes(r.obj), 0);
      // another build of the tree may have remembered this base meanwhile: this one replaces it
      this.forget(key);
      this.bases.set(key, { inputs, start, end, warnings, config: acc.config, crds: acc.crds, vars: acc.vars, resources, bytes });
      this.held += bytes;
    }
    return acc;
  }

  private forget(key: string): void {
    this.held -= this.bases.get(key)?.bytes ?? 0;
    this.bases.delete(key);
  }
}

/** About what a resource takes in memory: its object, and its build state (ids, origins, previous names). */
function resourceBytes(obj: YMap): number {
  return 512 + estimatedBytes(obj);
}

function remembered(r: Resource): RememberedResource {
  const obj = r.share();
  const state = new Resource(obj);
  state.copyStateFrom(r);
  return { obj, state };
}

/** A fresh accumulation holding what a base made: its resources are new ones sharing the remembered objects. */
function replay(kept: RememberedBase): Accumulator {
  const acc = new Accumulator();
  acc.resources.appendAll(
    kept.resources.map(({ obj, state }) => {
      const r = new Resource(obj);
      r.copyStateFrom(state);
      return r;
    }),
  );
  acc.config = kept.config;
  acc.crds = kept.crds;
  acc.vars.absorb(kept.vars);
  return acc;
}
