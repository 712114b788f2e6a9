import type { Range } from 'vscode-languageserver-types';
import { build } from '../build/build.js';
import { dirname, isWithin, resolve } from '../fs/path.js';
import { SizedLru } from '../memo/sized-lru.js';
import { outputLineOrigins } from '../output/provenance-lines.js';
import type { ResourceProvenance } from '../pipeline/provenance.js';
import { errorDiagnostic, placingContext, type RootDiagnostic } from './root-build.js';
import { buildOptionsOf } from './settings.js';
import { distance, type Root, type Workspace } from './workspace.js';

/** A line of a preview's output that holds a value, and where that value was written (LSP's 0-based positions). */
export interface PreviewOrigin {
  /** the line of `yaml` */
  outputLine: number;
  /** the file that wrote the value */
  uri: string;
  line: number;
  character: number;
  /** the step that wrote it, as explain names it: `resource`, `namePrefix`, `patches[0]`, … */
  step: string;
}

/** Why a root does not render: its build's error, where its diagnostic is shown. */
export interface PreviewError {
  code: string;
  message: string;
  uri: string;
  range: Range;
}

/** What both answers of `kustomize/preview` say: which root, and the others that read the file. */
interface PreviewOf {
  /** the root previewed, by its name (as `kustomize/previewChanged` and `kustomize/roots` name it) */
  root: string;
  /** the other roots whose builds read the file, by name */
  roots: string[];
}

/** What a root renders: its output with where each line's value came from, or the error its build fails with. */
type Rendering = { yaml: string; origins: PreviewOrigin[] } | { error: PreviewError };

/** The answer to `kustomize/preview`. */
export type PreviewResult = PreviewOf & Rendering;

/** A file no root can preview (no root reads it or holds it, or no root has the name asked for). */
export class PreviewUnavailable extends Error {}

/** How many roots' renderings are kept (those open in an editor's previews, asked again for a definition). */
const KEPT_PREVIEWS = 4;

/** A root's rendering, made for one count of its changes. */
interface KeptRendering {
  generation: number;
  rendering: Promise<Rendering>;
}

/**
 * The rendered output of a root, as `kustomize-ts build` prints it over the editor's texts, for
 * a file of it: with, for each line holding a value, where the value was written (from a build
 * recording provenance, as explain's), so that an editor can go from a line of the output to
 * its source. The last renderings are kept until a file their root read changes.
 */
export class Previews {
  private readonly kept = new SizedLru<Root, KeptRendering>(KEPT_PREVIEWS, () => 1);

  constructor(
    private readonly ws: Workspace,
    private readonly uriOf: (path: string) => string,
  ) {}

  /**
   * The preview of the root named `rootName`, or else of the root `path` belongs to: the root
   * whose kustomization it is, else the nearest of the roots whose builds read it, else the
   * nearest root whose directory holds it. Waits for that root to be built over the texts as
   * they are: what it renders is then what later changes are compared with.
   */
  async preview(path: string, rootName?: string): Promise<PreviewResult> {
    let reading = this.ws.rootsReading(path);
    // asked before the roots were first built: which roots read the file is not known yet
    if (reading.length === 0 && this.ws.allRoots().some((r) => r.outcome === undefined)) {
      await this.ws.whenIdle();
      reading = this.ws.rootsReading(path);
    }
    const root = rootName !== undefined ? this.ws.allRoots().find((r) => r.name === rootName) : this.rootOf(path, reading);
    if (root === undefined) throw new PreviewUnavailable(rootName !== undefined ? `no root is named ${rootName}` : `no kustomization root reads ${path}`);
    await this.ws.whenBuilt(root);
    return { root: root.name, roots: reading.filter((r) => r !== root).map((r) => r.name), ...(await this.renderingOf(root)) };
  }

  private rootOf(path: string, reading: readonly Root[]): Root | undefined {
    const all = this.ws.allRoots();
    const own = all.find((r) => r.kustomization === path);
    if (own) return own;
    const nearest = (roots: readonly Root[]) => roots.reduce<Root | undefined>((best, r) => (best === undefined || distance(r.dir, dirname(path)) < distance(best.dir, dirname(path)) ? r : best), undefined);
    return nearest(reading) ?? nearest(all.filter((r) => isWithin(r.dir, path)));
  }

  private renderingOf(root: Root): Promise<Rendering> {
    const generation = this.ws.generationOf(root);
    const kept = this.kept.get(root);
    if (kept?.generation === generation) return kept.rendering;
    const made: KeptRendering = { generation, rendering: this.render(root) };
    this.kept.set(root, made);
    return made.rendering;
  }

  private async render(root: Root): Promise<Rendering> {
    const outcome = root.outcome;
    if (outcome === undefined) throw new PreviewUnavailable(`${root.name} is no root any more`);
    const failed = outcome.built ? undefined : outcome.diagnostics[0];
    if (failed) return { error: this.previewError(failed) };
    try {
      const result = await build(root.dir, { ...buildOptionsOf(this.ws.settings, root.folder), fs: this.ws.fs, provenance: true });
      return { yaml: result.yaml, origins: this.origins(root, result.yaml, result.provenance ?? []) };
    } catch (e) {
      // the files changed since the root was built: the error of the build over them
      return { error: this.previewError(errorDiagnostic(e, placingContext(this.ws.fs, root.dir, root.kustomization, outcome.asked))) };
    }
  }

  private previewError(d: RootDiagnostic): PreviewError {
    return { code: d.code, message: d.message, uri: this.uriOf(d.file), range: d.range };
  }

  private origins(root: Root, yaml: string, provenance: readonly ResourceProvenance[]): PreviewOrigin[] {
    return outputLineOrigins(yaml, provenance).flatMap((by, outputLine) => {
      // a value the build made (no file) or a fetched file's (a URL) is at no place the editor has
      if (by === undefined || by.file === '' || by.line < 1 || /^[a-z][a-z0-9+.-]*:\/\//i.test(by.file)) return [];
      return [{ outputLine, uri: this.uriOf(resolve(root.dir, by.file)), line: by.line - 1, character: Math.max(0, by.column - 1), step: by.step }];
    });
  }
}
