import type { Notice, NoticeCode } from '../errors.js';
import type { Resource } from '../model/resource.js';
import { describeSelector, type Selector } from '../model/selector.js';
import type { PluginContext } from '../plugins/plugin.js';
import type { ParseOptions } from '../yaml/parse.js';

/** Keys and indexes into a YAML value: a step's config, or a document of a text it reads. */
export type ValuePath = readonly (string | number)[];

/**
 * What a builtin notices about its own step (see {@link Notice}), told by where in its config:
 * the pipeline, which knows where the config was written (a kustomization field, a plugin's
 * file), gives it with the file, line and step.
 */
export interface StepNotice {
  readonly code: NoticeCode;
  /** the step is named in front of it (`patches[1]: …`) */
  readonly message: string;
  /** the value of the config it is about: `['target']`, `['labels', 'app']`, `['replacements', 0, 'targets', 2, 'select']` */
  readonly at: ValuePath;
  /**
   * When it is about a value inside the YAML text the config's value at `at` holds (an inline
   * patch) or names (a file: a patch's `path`, a replacements `path`): where in that text, and
   * the dialect the builtin read it in (a replacements file is read as kustomizations are).
   */
  readonly within?: { readonly text: 'held' | 'named'; readonly document: number; readonly path: ValuePath; readonly dialect?: ParseOptions['dialect'] };
  readonly resource?: Notice['resource'];
}

/** Where a builtin gives its notices. */
export type GiveNotice = (notice: StepNotice) => void;

const UNHEARD: GiveNotice = () => undefined;

/**
 * Where the builtins of one build give their notices, by the context each step runs in: the
 * pipeline makes a context for each step it configures and notes there where its notices go;
 * the plugin contract does not carry them (a context of no step, the build's finishing steps',
 * gives them nowhere).
 */
export class StepNotices {
  /** (a map, not a weak one: the contexts live as long as the build, and weak entries cost the garbage collector more) */
  private readonly byContext = new Map<PluginContext, GiveNotice>();

  /** Notes that the step running in `ctx` gives its notices to `give`. */
  route(ctx: PluginContext, give: GiveNotice): void {
    this.byContext.set(ctx, give);
  }

  /** Where the builtin configured with `ctx` gives its notices. */
  of(ctx: PluginContext): GiveNotice {
    return this.byContext.get(ctx) ?? UNHEARD;
  }
}

/** A notice's `resource`: the resource as the build has it now. */
export function noticedResource(r: Resource): NonNullable<Notice['resource']> {
  return { apiVersion: r.apiVersion, kind: r.kind, namespace: r.namespace, name: r.name };
}

/** The notice of a patch step whose `target` selects nothing: kustomize applies the patch to nothing, and says nothing. */
export function unmatchedTarget(target: Selector): StepNotice {
  return {
    code: 'PATCH_TARGET_UNMATCHED',
    message: `the target (${describeSelector(target)}) selects no resource: the patch is not applied`,
    at: ['target'],
  };
}
