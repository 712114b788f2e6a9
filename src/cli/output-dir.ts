import type { Resource } from '../model/resource.js';
import { emitYaml } from '../yaml/emit.js';
import { KustomizeError } from '../errors.js';

/** One file of `-o DIR`: its name inside DIR and its text. */
interface ResourceFile {
  name: string;
  text: string;
  /** the resource it holds, for messages */
  resource: Resource;
}

/**
 * `-o DIR`: one file per resource, named `<group>_<version>_<kind>_<name>.yaml` in lower case
 * (empty parts left out); when the resources span several namespaces, namespaced files are
 * prefixed with their namespace, as kustomize does. Unlike kustomize, a name never leaves DIR
 * (path separators become `_`), and two resources that would share a file (also on a
 * case-insensitive file system) are an error rather than one overwriting the other.
 */
export function resourceFiles(resources: readonly Resource[]): ResourceFile[] {
  const namespaced = resources.filter((r) => !r.id.isClusterScoped);
  const namespaces = new Set(namespaced.map((r) => r.id.effectiveNamespace));
  const files = resources.map((r) => {
    let name = fileName(r);
    if (!r.id.isClusterScoped && namespaces.size > 1) name = `${r.id.effectiveNamespace.toLowerCase()}_${name}`;
    return { name: safeFileName(name), text: emitYaml(r.view), resource: r };
  });
  refuseCollisions(files);
  return files;
}

function fileName(r: Resource): string {
  const id = r.id;
  const gvk = [id.group, id.version, id.kind].filter((p) => p !== '').join('_');
  return `${gvk}_${id.name}.yaml`.toLowerCase();
}

/** One path component: separators (either OS's) and control characters become `_`. */
function safeFileName(name: string): string {
  // eslint-disable-next-line no-control-regex
  return name.replace(/[/\\\u0000-\u001f\u007f]/g, '_');
}

/** Names that one case-insensitive, normalising file system (macOS, Windows) would store as one file. */
function fileSystemKey(name: string): string {
  return name.normalize('NFC').toUpperCase().toLowerCase();
}

function refuseCollisions(files: readonly ResourceFile[]): void {
  const seen = new Map<string, ResourceFile>();
  for (const f of files) {
    const key = fileSystemKey(f.name);
    const earlier = seen.get(key);
    if (earlier) {
      throw new KustomizeError(
        'OUTPUT_FAILED',
        `resources ${earlier.resource.id} and ${f.resource.id} would both be written to '${earlier.name}'${earlier.name === f.name ? '' : ` (as '${f.name}')`}; write them to one file with -o FILE`,
        { file: f.name },
      );
    }
    seen.set(key, f);
  }
}
