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

export function checkLabels(labels: Record<string, string>): void {
  for (const [key, value] of Object.entries(labels)) {
    const keyProblem = qualifiedNameProblem(key);
    if (keyProblem) throw new KustomizeError('EDIT_INVALID', `metadata.labels: Invalid value: "${key}": ${keyProblem}`);
    if (value.length > 63) throw new KustomizeError('EDIT_INVALID', `metadata.labels: Invalid value: "${value}": must be no more than 63 characters`);
    if (value !== '' && !NAME_PART.test(value)) {
      throw new KustomizeError(
        'EDIT_INVALID',
        `metadata.labels: Invalid value: "${value}": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character`,
      );
    }
  }
}

export function checkLabelKeys(keys: string[]): void {
  checkLabels(Object.fromEntries(keys.map((k) => [k, ''])));
}

export function checkAnnotationKeys(keys: string[]): void {
  for (const key of keys) {
    const problem = qualifiedNameProblem(key.toLowerCase());
    if (problem) throw new KustomizeError('EDIT_INVALID', `metadata.annotations: Invalid value: "${key}": ${problem}`);
  }
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
