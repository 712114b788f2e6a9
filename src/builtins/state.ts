import { ApiVersionsFlag } from '../helm/api-versions.js';
import type { BuildRemoteInputs } from '../load/remote/locked-source.js';
import type { ResolvedOptions } from '../options.js';
import { StepNotices } from './step-notice.js';

/**
 * What the builtins of one build share, held by the build's context: one per build, so builds
 * running at the same time share nothing.
 */
export class BuiltinState {
  /** `--helm-api-versions`, which kustomize's charts share (see api-versions.ts) */
  readonly helmApiVersions: ApiVersionsFlag;

  /** where each step's builtin gives its notices */
  readonly notices = new StepNotices();

  constructor(
    options: Readonly<Pick<ResolvedOptions, 'helmApiVersions'>>,
    /** the build's lock and remote source: where the charts helm pulls are checked and noted, and values files over HTTP fetched */
    readonly remoteInputs: BuildRemoteInputs,
  ) {
    this.helmApiVersions = new ApiVersionsFlag(options.helmApiVersions);
  }
}
