import { build } from '../build/build.js';
import { BuildCache } from '../build/build-cache.js';
import { givenSchemas } from '../build/validate.js';
import { findRoots, isRoot } from '../build/roots.js';
import type { FileSystem } from '../fs/filesystem.js';
import { basename, dirname, isWithin, join, relative } from '../fs/path.js';
import { kustomizationFilesIn } from '../load/entry.js';
import { SizedLru } from '../memo/sized-lru.js';
import type { SchemaSet } from '../schema/schema-set.js';
import { isKustomizationFile } from './error-place.js';
import { OverlayFileSystem } from './overlay-fs.js';
import { RecordIndex } from './records.js';
import { buildRoot, SCHEMA_VIOLATION, validateRoot, type RootOutcome } from './root-build.js';
import { buildOptionsOf, DEFAULT_SETTINGS, type LanguageSettings } from './settings.js';

/** A kustomization root of the workspace: a directory `build-all` would build. */
export interface Root {
  readonly dir: string;
  /** its kustomization file */
  readonly kustomization: string;
  /** the workspace folder it was found in (for a loose document's root, its own directory) */
  readonly folder: string;
  /** as messages name it: its path from the folder (the folder's name for the folder itself) */
  readonly name: string;
  /** what its last build found, and every path it asked about; undefined before its first build */
  outcome?: RootOutcome;
  /** how many builds of it have finished (a stopped one is not counted) */
  builds: number;
  /** how many times its records of `explain` have been made */
  recordings: number;
}

/** How a file changed on the disk (what a file watcher says). */
export type FileChange = 'created' | 'changed' | 'deleted';

/**
 * How much memory the roots' records of `explain` kept for hovers may hold, as
 * {@link RecordIndex.bytes} estimates it (a root of a million values takes about 50 MB): the
 * roots hovered least recently are dropped first.
 */
const RECORD_BYTES = 128 * 1024 * 1024;
/** While a long run of builds goes on (opening a repository), what it found is told this often (ms), not only at its end. */
const BATCH_INTERVAL_MS = 200;
/** How long (ms) the editor must be quiet before outputs are checked (no change, no request), or roots other than the one a change concerns most are built (no change): a check or build in progress delays the next change's build. */
const CHECK_QUIET_MS = 250;

/**
 * The state every feature of the language service reads: the files as the editor has them (its
 * open documents' texts over the file system), the workspace's kustomization roots, which root
 * read which file, each root's last build, and `explain`'s records of a root when asked for.
 *
 * Builds run one at a time, in the background, each root at most once per change: a change to a
 * file queues the roots whose last build asked about it (a root queued twice is built once), and
 * a root changed while it builds is built again (what that build found is dropped, and a plugin,
 * helm or a fetch it waits on is stopped). Typing therefore never queues more than every root
 * once. Roots whose builds read an open document go first, then those nearest to one. No timer
 * delays the first build after a change: changes that arrive together (in one turn of the event
 * loop, or while a build runs) are built together; the other roots they queued wait for the
 * editor to be quiet. Then the records hovers asked for are made; outputs are checked against
 * their schemas when no build waits.
 */
export class Workspace {
  readonly fs: OverlayFileSystem;
  /** one cache for every build of the workspace */
  readonly cache = new BuildCache();
  private currentSettings: LanguageSettings = DEFAULT_SETTINGS;
  private folders: string[] = [];
  /** whether the folders' roots are to be found again (the folders or the excluded directories changed) */
  private rootsToFind = false;
  private readonly roots = new Map<string, Root>();
  /** the roots whose last build asked about each path */
  private readonly readers = new Map<string, Set<Root>>();
  private readonly queue = new Set<Root>();
  /** the roots built whose outputs are still to be checked against their schemas */
  private readonly unchecked = new Set<Root>();
  /** how often each root's files changed: a build or records of an older count are stale */
  private readonly generations = new WeakMap<Root, number>();
  /** the root being built, or checked (`check`) */
  private building: { root: Root; controller: AbortController; check: boolean } | undefined;
  /** the roots whose rendering (output, or error) changed since the last time it was told */
  private readonly rerendered = new Set<Root>();
  /** requests waiting for a root to be built (see whenBuilt) */
  private builtWaiters: { root: Root; resolve: () => void }[] = [];
  /** when the editor last changed a file or asked something */
  private activeAt = 0;
  /** when a file last changed or the build answering the change ended (the editor types on from there), and whether that build has started */
  private typedAt = 0;
  private changeUnbuilt = false;
  /** ends the wait for a quiet moment, when a change comes */
  private wake: (() => void) | undefined;
  private running: Promise<void> | undefined;
  private idle: (() => void)[] = [];
  private readonly open = new Set<string>();
  private readonly schemaSets = new Map<string, Promise<SchemaSet>>();
  /** the roots' records made over the files as they are (a root's are dropped when it is queued to build) */
  private readonly records = new SizedLru<Root, RecordIndex>(RECORD_BYTES, (_, index) => index.bytes);
  /** the roots whose records are asked for and not made yet, the latest asked first; and who waits for them */
  private recording = new Map<Root, ((index: RecordIndex) => void)[]>();
  private makingRecords: { root: Root; controller: AbortController } | undefined;

  constructor(
    below: FileSystem,
    /** told, at the end of each run of builds (and every so often during a long one), the files whose problems may have changed */
    private readonly built: (files: ReadonlySet<string>) => void,
    /** told, with the problems, the roots whose output (or error) is not what their last build rendered (a root removed renders nothing) */
    private readonly rendered?: (roots: readonly Root[]) => void,
  ) {
    this.fs = new OverlayFileSystem(below);
  }

  get settings(): LanguageSettings {
    return this.currentSettings;
  }

  /** Every root, in path order. */
  allRoots(): Root[] {
    return [...this.roots.values()].sort((a, b) => (a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0));
  }

  /** Whether `path` is inside a workspace folder, or a loose document's root: what the editor may read. */
  inWorkspace(path: string): boolean {
    return this.folders.some((f) => isWithin(f, path)) || [...this.roots.values()].some((r) => isWithin(r.folder, path));
  }

  /** The roots whose last build read or looked for `path`. */
  rootsReading(path: string): Root[] {
    return [...(this.readers.get(path) ?? [])].sort((a, b) => (a.name < b.name ? -1 : 1));
  }

  /** Whether a root waits to be built or checked, or is being built or checked. */
  isPending(root: Root): boolean {
    return this.queue.has(root) || this.unchecked.has(root) || this.building?.root === root;
  }

  /**
   * The workspace folders (absolute paths): their roots are found as `build-all` finds them (in
   * the background, before the next build), and all built.
   */
  setFolders(folders: readonly string[]): void {
    this.folders = [...folders];
    this.schemaSets.clear();
    this.rootsToFind = true;
    this.running ??= this.drain();
  }

  /** New settings: every root is built again with them. */
  configure(settings: LanguageSettings): void {
    const rootsMove = JSON.stringify(settings.exclude) !== JSON.stringify(this.currentSettings.exclude);
    this.currentSettings = settings;
    this.schemaSets.clear();
    if (rootsMove) this.rootsToFind = true;
    for (const root of this.roots.values()) this.enqueue(root);
    this.running ??= this.drain();
  }

  /** An editor's text for `path` (opened or changed), over the file system's. */
  setText(path: string, text: string, opened: boolean): void {
    const existed = this.fs.exists(path);
    this.fs.set(path, text);
    if (opened) {
      this.open.add(path);
      this.adoptLooseDocument(path);
    }
    this.touched(path, existed ? 'changed' : 'created');
  }

  /** The editor closed `path`: the file system's text counts again. */
  closeText(path: string): void {
    this.open.delete(path);
    this.fs.unset(path);
    this.touched(path, this.fs.exists(path) ? 'changed' : 'deleted');
  }

  /** A file changed on the disk. An open document's text still wins over it. */
  touched(path: string, change: FileChange): void {
    this.typedAt = Date.now();
    this.changeUnbuilt = true;
    const dirty = new Set(this.readers.get(path) ?? []);
    // a file made or removed changes what its directory lists
    if (change !== 'changed') for (const r of this.readers.get(dirname(path)) ?? []) dirty.add(r);
    if (change === 'deleted') for (const r of [...this.roots.values()]) if (isWithin(path, r.dir)) this.removeRoot(r);
    if (change === 'created' && this.fs.isDirectory(path)) for (const folder of this.folders) if (isWithin(folder, path)) this.addRootsUnder(path, folder);
    if (isKustomizationFile(path)) this.checkRoot(dirname(path));
    for (const r of dirty) if (this.roots.get(r.dir) === r) this.enqueue(r);
  }

  /** Resolves when no build is queued or running (every change so far has been built, and said). */
  whenIdle(): Promise<void> {
    if (!this.running) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  /**
   * Resolves once the root is built over the files as they are now (not queued, not being
   * built; its schema check may still wait), or is removed: its `outcome` is then what a change
   * to come is compared with to tell whether it renders differently.
   */
  whenBuilt(root: Root): Promise<void> {
    if (this.isBuilt(root)) return Promise.resolve();
    return new Promise((resolve) => this.builtWaiters.push({ root, resolve }));
  }

  /** How often the root's files changed: what is made of them is current while it stays the same. */
  generationOf(root: Root): number {
    return this.generations.get(root) ?? 0;
  }

  /** Stops the running build and forgets the queue; who waits for records gets none. */
  dispose(): void {
    this.queue.clear();
    this.unchecked.clear();
    this.building?.controller.abort();
    this.makingRecords?.controller.abort();
    const waiting = [...this.recording.entries()];
    this.recording.clear();
    for (const [root, waiters] of waiting) for (const wake of waiters) wake(new RecordIndex([], root.dir));
  }

  /**
   * `explain`'s records of the root's build over the files as they are now. Those not made are
   * made in the background (a build recording provenance each, which uses no cache): after the
   * builds waiting, before the checks, the roots asked for last first. Kept until a file their
   * build read changes, within {@link RECORD_BYTES}.
   */
  recordsOf(root: Root): Promise<RecordIndex> {
    const kept = this.records.get(root);
    if (kept) return Promise.resolve(kept);
    const waiters = this.recording.get(root) ?? [];
    this.recording = new Map([[root, waiters], ...[...this.recording].filter(([r]) => r !== root)]);
    this.wake?.();
    this.running ??= this.drain();
    return new Promise((resolve) => waiters.push(resolve));
  }

  /** Whether the root's records are made (and current): a hover can have them at once. */
  hasRecords(root: Root): boolean {
    return this.records.get(root) !== undefined;
  }

  private findAllRoots(): void {
    const wanted = new Map<string, string>();
    for (const folder of this.folders) {
      let found: string[] = [];
      try {
        found = findRoots(this.fs, folder, this.settings.exclude);
      } catch {
        // a folder that is no directory (removed, or a file) holds no roots
      }
      for (const rel of found) wanted.set(rel === '.' ? folder : join(folder, rel), folder);
    }
    for (const root of [...this.roots.values()]) if (wanted.get(root.dir) !== root.folder && !this.open.has(root.kustomization)) this.removeRoot(root);
    for (const [dir, folder] of wanted) if (!this.roots.has(dir)) this.addRoot(dir, folder);
  }

  private addRootsUnder(dir: string, folder: string): void {
    let found: string[] = [];
    try {
      found = findRoots(this.fs, dir, this.settings.exclude);
    } catch {
      return;
    }
    for (const rel of found) {
      const at = rel === '.' ? dir : join(dir, rel);
      if (!this.roots.has(at)) this.addRoot(at, folder);
    }
  }

  /** Adds or removes the root at `dir` as its kustomization file now says (made, removed, or turned into a Component). */
  private checkRoot(dir: string): void {
    const root = this.roots.get(dir);
    const folder = root?.folder ?? this.folders.find((f) => isWithin(f, dir));
    const is = kustomizationFilesIn(this.fs, dir).length > 0 && isRoot(this.fs, dir);
    if (root && !is) this.removeRoot(root);
    else if (!root && is && folder !== undefined) this.addRoot(dir, folder);
  }

  /** A document outside every workspace folder is built as part of the nearest kustomization root above it (a lone kustomization). */
  private adoptLooseDocument(path: string): void {
    if (this.folders.some((f) => isWithin(f, path)) || [...this.roots.values()].some((r) => isWithin(r.dir, path))) return;
    for (let dir = dirname(path); ; dir = dirname(dir)) {
      if (kustomizationFilesIn(this.fs, dir).length > 0 && isRoot(this.fs, dir)) {
        this.addRoot(dir, dir);
        return;
      }
      if (dir === '/' || dir === '.') return;
    }
  }

  private addRoot(dir: string, folder: string): void {
    const rel = relative(folder, dir);
    const name = rel === '.' ? basename(folder) || '/' : this.folders.length > 1 ? `${basename(folder)}/${rel}` : rel;
    const kustomization = join(dir, kustomizationFilesIn(this.fs, dir)[0] ?? 'kustomization.yaml');
    const root: Root = { dir, kustomization, folder, name, builds: 0, recordings: 0 };
    this.roots.set(dir, root);
    this.enqueue(root);
  }

  private removeRoot(root: Root): void {
    this.roots.delete(root.dir);
    this.queue.delete(root);
    this.unchecked.delete(root);
    this.rerendered.delete(root);
    if (this.building?.root === root) this.building.controller.abort();
    this.records.delete(root);
    if (this.makingRecords?.root === root) this.makingRecords.controller.abort();
    const waiters = this.recording.get(root) ?? [];
    this.recording.delete(root);
    for (const wake of waiters) wake(new RecordIndex([], root.dir));
    const files = this.forget(root);
    const rendered = root.outcome !== undefined;
    root.outcome = undefined;
    if (files.size > 0) this.tell(files);
    if (rendered) this.tellRendered([root]);
    this.wakeBuilt();
  }

  /** Tells what builds found; a listener that fails does not stop the builds. */
  private tell(files: ReadonlySet<string>): void {
    try {
      this.built(files);
    } catch {
      // the listener's failure is its own (a closed connection): the workspace goes on
    }
  }

  /** Tells the roots that render differently; a listener that fails does not stop the builds. */
  private tellRendered(roots: readonly Root[]): void {
    try {
      this.rendered?.(roots);
    } catch {
      // as in tell
    }
  }

  private isBuilt(root: Root): boolean {
    if (this.roots.get(root.dir) !== root) return true;
    return root.outcome !== undefined && !this.queue.has(root) && !(this.building?.root === root && !this.building.check);
  }

  /** Resolves the waits of the roots now built. */
  private wakeBuilt(): void {
    const waiting = this.builtWaiters;
    this.builtWaiters = waiting.filter((w) => !this.isBuilt(w.root));
    for (const w of waiting) if (this.isBuilt(w.root)) w.resolve();
  }

  /** Takes the root's last build out of the index; returns the files it had problems in. */
  private forget(root: Root): Set<string> {
    for (const path of root.outcome?.asked ?? []) {
      const set = this.readers.get(path);
      set?.delete(root);
      if (set?.size === 0) this.readers.delete(path);
    }
    return new Set(root.outcome?.diagnostics.map((d) => d.file));
  }

  /** The editor asked something (a hover): the checks wait for a quiet moment. */
  noteActivity(): void {
    this.activeAt = Date.now();
  }

  private enqueue(root: Root): void {
    this.generations.set(root, (this.generations.get(root) ?? 0) + 1);
    this.queue.add(root);
    this.records.delete(root);
    this.activeAt = Date.now();
    this.wake?.();
    if (this.building?.root === root) this.building.controller.abort();
    if (this.makingRecords?.root === root) this.makingRecords.controller.abort();
    this.running ??= this.drain();
  }

  /**
   * Builds the queued roots, one at a time, then makes the records hovers asked for, then checks
   * the outputs of those built against their schemas, until nothing is left; tells what they found
   * in batches. A build goes before any check: placing a check's problems builds the root again
   * recording provenance, which costs several builds, so while edits keep coming only builds run,
   * and the checks wait for the editor to be quiet (a check under way would hold up the next
   * keystroke's build, or a hover).
   */
  private async drain(): Promise<void> {
    // what arrives in this turn of the event loop is built together
    await new Promise((resolve) => setTimeout(resolve, 0));
    let told = Date.now();
    const changed = new Set<string>();
    for (;;) {
      if (this.rootsToFind) {
        this.rootsToFind = false;
        this.findAllRoots();
      }
      const building = this.queue.size > 0;
      // after a change, the root it concerns most is built at once, and the others when the
      // editor is quiet: a build cannot stop midway, and one under way would hold up the next keystroke's
      const typing = building && !this.changeUnbuilt ? CHECK_QUIET_MS - (Date.now() - this.typedAt) : 0;
      if (typing > 0) {
        if (changed.size > 0) told = this.tellNow(changed);
        await this.quietFor(typing);
        continue;
      }
      if (!building && this.recording.size > 0) {
        if (changed.size > 0) told = this.tellNow(changed);
        await this.makeRecords(this.recording.keys().next().value!);
        await new Promise((resolve) => setTimeout(resolve, 0));
        continue;
      }
      if (!building && this.unchecked.size === 0) break;
      const quiet = CHECK_QUIET_MS - (Date.now() - this.activeAt);
      if (!building && quiet > 0) {
        await this.quietFor(quiet);
        continue;
      }
      const answering = building && this.changeUnbuilt;
      if (building) this.changeUnbuilt = false;
      const root = this.next(building ? this.queue : this.unchecked);
      this.queue.delete(root);
      this.unchecked.delete(root);
      const generation = this.generations.get(root);
      const controller = new AbortController();
      this.building = { root, controller, check: !building };
      const ctx = { fs: this.fs, cache: this.cache, settings: this.settings, folder: root.folder, schemas: () => this.schemasFor(root.folder), signal: controller.signal };
      const outcome = await (building ? buildRoot : validateRoot)(root.dir, root.kustomization, ctx).catch(() => undefined);
      this.building = undefined;
      if (answering) this.typedAt = Date.now();
      if (outcome && this.generations.get(root) === generation && this.roots.get(root.dir) === root) {
        const last = root.outcome?.diagnostics ?? [];
        if (building) {
          // the schema problems found before stay until the new ones are placed: they do not blink at each keystroke
          const checking = this.settings.validate && outcome.built;
          // a build that fails (a half-typed line) keeps the last output: completion still knows the resources
          const output = outcome.output ?? root.outcome?.output;
          if (root.outcome === undefined || renderingOf(root.outcome) !== renderingOf(outcome)) this.rerendered.add(root);
          this.settle(root, { ...outcome, diagnostics: [...outcome.diagnostics, ...(checking ? last.filter((d) => d.code === SCHEMA_VIOLATION) : [])], ...(output && { output }) }, changed);
          root.builds++;
          if (checking) this.unchecked.add(root);
        } else {
          const built = root.outcome!;
          this.settle(root, { ...built, diagnostics: [...last.filter((d) => d.code !== SCHEMA_VIOLATION), ...outcome.diagnostics], asked: new Set([...built.asked, ...outcome.asked]) }, changed);
        }
      }
      const now = Date.now();
      // what a root reading an open document found is told at once: the editor shows it first
      if ((this.queue.size === 0 && this.unchecked.size === 0) || this.rank(root) < 1 || now - told >= BATCH_INTERVAL_MS) told = this.tellNow(changed);
      this.wakeBuilt();
      // requests (a hover, the next change) are answered between two builds
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    this.running = undefined;
    this.wakeBuilt();
    for (const resolve of this.idle.splice(0)) resolve();
  }

  /** Waits `ms`, or until a change or a request for records comes. */
  private async quietFor(ms: number): Promise<void> {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.wake = undefined;
  }

  /**
   * Makes the root's records, for those waiting; keeps them if its files did not change
   * meanwhile (else it is asked again, after its build).
   */
  private async makeRecords(root: Root): Promise<void> {
    const generation = this.generations.get(root);
    const controller = new AbortController();
    this.makingRecords = { root, controller };
    let index: RecordIndex;
    try {
      const made = await build(root.dir, { ...buildOptionsOf(this.settings, root.folder), fs: this.fs, provenance: true, signal: controller.signal });
      index = new RecordIndex(made.provenance ?? [], root.dir, made.resources);
    } catch {
      // a build that fails has no output: nothing to show
      index = new RecordIndex([], root.dir);
    }
    this.makingRecords = undefined;
    if (this.generations.get(root) !== generation || this.roots.get(root.dir) !== root) return;
    const waiters = this.recording.get(root) ?? [];
    this.recording.delete(root);
    root.recordings++;
    this.records.set(root, index);
    for (const wake of waiters) wake(index);
  }

  /** Tells the files in `changed`, and empties it; returns when. */
  private tellNow(changed: Set<string>): number {
    this.tell(new Set(changed));
    changed.clear();
    if (this.rerendered.size > 0) this.tellRendered([...this.rerendered]);
    this.rerendered.clear();
    return Date.now();
  }

  /** Puts a root's new outcome in place of its last: the index of who read what, and the files whose problems changed. */
  private settle(root: Root, outcome: RootOutcome, changed: Set<string>): void {
    for (const file of this.forget(root)) changed.add(file);
    root.outcome = outcome;
    for (const path of outcome.asked) {
      let set = this.readers.get(path);
      if (!set) this.readers.set(path, (set = new Set()));
      set.add(root);
    }
    for (const d of outcome.diagnostics) changed.add(d.file);
  }

  /** The root of `roots` to build (or check) next: one that read an open document, else the nearest to one, else the first. */
  private next(roots: ReadonlySet<Root>): Root {
    let best: Root | undefined;
    let bestRank = Infinity;
    for (const root of roots) {
      const rank = this.rank(root);
      if (rank < bestRank) [best, bestRank] = [root, rank];
      if (rank === 0) break;
    }
    return best!;
  }

  /**
   * How soon a root is built: below 1 when its last build read an open document (or the document is
   * in its directory), the nearest to the document first; else 1 and how far it is from one.
   */
  private rank(root: Root): number {
    let rank = this.open.size === 0 ? 0 : Infinity;
    for (const path of this.open) {
      const far = distance(root.dir, dirname(path));
      const reads = root.outcome?.asked.has(path) || isWithin(root.dir, path);
      rank = Math.min(rank, reads ? far / (far + 1) : 1 + far);
    }
    return rank;
  }

  /** The schemas outputs of the folder's roots are checked against: the settings' Kubernetes version and `schemas` (read once per folder and settings). */
  schemasFor(folder: string): Promise<SchemaSet> {
    let set = this.schemaSets.get(folder);
    if (!set) {
      const { kubernetesVersion, schemas } = this.settings;
      this.schemaSets.set(folder, (set = givenSchemas({ kubernetesVersion, schemas, fs: this.fs, cwd: folder })));
    }
    return set;
  }
}

/** What a root's build rendered: its output's digest, or its error. */
function renderingOf(outcome: RootOutcome): string | undefined {
  return outcome.built ? outcome.rendered : JSON.stringify(outcome.diagnostics);
}

/** How many directories apart two directories are: up from one to where they meet, and down to the other. */
export function distance(a: string, b: string): number {
  const x = a.split('/').filter(Boolean);
  const y = b.split('/').filter(Boolean);
  let same = 0;
  while (same < x.length && same < y.length && x[same] === y[same]) same++;
  return x.length + y.length - 2 * same;
}
