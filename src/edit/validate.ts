import { KustomizeError } from '../errors.js';

/** kustomize's `buildMetadata` options. */
const BUILD_METADATA_OPTIONS = ['originAnnotations', 'transformerAnnotations', 'managedByLabel'] as const;

const NAME_PART = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** Kubernetes' qualified-name rule for label and annotation keys (`prefix/name`), as kustomize's validator applies it. */
function qualifiedNameProblem(key: string): string | undefined {
  const parts = key.split('/');
  const name = parts.length === 2 ? parts[1]! : parts[0]!;
  if (parts.length > 2) return 'a qualified name must consist of alphanumeric characters, \'-\', \'_\' or \'.\', with an optional DNS subdomain prefix and \'/\'';
  if (parts.length === 2 && (parts[0]!.length === 0 || parts[0]!.length > 253 || !DNS1123_SUBDOMAIN.test(parts[0]!))) {
    return 'prefix part must be a lowercase RFC 1123 subdomain';
  }
  if (name.length === 0) return 'name part must be non-empty';
  if (name.length > 63) return 'name part must be no more than 63 characters';
  if (!NAME_PART.test(name)) return "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
  return undefined;
}

/**
 * What Kubernetes would refuse in labels or annotations, as warnings: kustomize's own
 * validator accepts every key and value (`key:v1:v2`, `owls:not cute`), and so does the edit;
 * the API server is the one to refuse them, when the objects are applied.
 */
export function metadataWarnings(kind: 'label' | 'annotation', pairs: Record<string, string>): string[] {
  const field = kind === 'label' ? 'metadata.labels' : 'metadata.annotations';
  const warnings: string[] = [];
  const warn = (value: string, problem: string) => warnings.push(`Warning: ${field}: Invalid value: "${value}": ${problem} (written as given; Kubernetes will refuse it)`);
  for (const [key, value] of Object.entries(pairs)) {
    const keyProblem = qualifiedNameProblem(kind === 'label' ? key : key.toLowerCase());
    if (keyProblem) warn(key, keyProblem);
    if (kind !== 'label') continue;
    if (value.length > 63) warn(value, 'must be no more than 63 characters');
    else if (value !== '' && !NAME_PART.test(value)) {
      warn(value, "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character");
    }
  }
  return warnings;
}

export function checkNamespace(namespace: string): void {
  if (namespace.length > 63 || !DNS1123_LABEL.test(namespace)) {
    throw new KustomizeError(
      'EDIT_INVALID',
      `"${namespace}" is not a valid namespace name: a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character`,
    );
  }
}

export function checkBuildMetadataOptions(options: string[]): void {
  if (options.length === 0) throw new KustomizeError('EDIT_INVALID', 'must specify a buildMetadata option');
  for (const o of options) {
    if (!(BUILD_METADATA_OPTIONS as readonly string[]).includes(o)) throw new KustomizeError('EDIT_INVALID', `invalid buildMetadata option: ${o}`);
  }
}
