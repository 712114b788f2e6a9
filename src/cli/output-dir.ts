import * as nodeFs from 'node:fs';
import * as nodePath from 'node:path';
import type { Resource } from '../model/resource.js';
import { emitYaml } from '../yaml/emit.js';

/**
 * `-o DIR`: one file per resource, named `<group>_<version>_<kind>_<name>.yaml` in lower case
 * (empty parts left out); when the resources span several namespaces, namespaced files are
 * prefixed with their namespace, as kustomize does.
 */
export function writeResourceFiles(dir: string, resources: readonly Resource[]): void {
  const namespaced = resources.filter((r) => !r.id.isClusterScoped);
  const namespaces = new Set(namespaced.map((r) => r.id.effectiveNamespace));
  const files = resources.map((r) => {
    let name = fileName(r);
    if (!r.id.isClusterScoped && namespaces.size > 1) name = `${r.id.effectiveNamespace.toLowerCase()}_${name}`;
    return [name, emitYaml(r.obj)] as const;
  });
  for (const [name, text] of files) nodeFs.writeFileSync(nodePath.join(dir, name), text);
}

function fileName(r: Resource): string {
  const id = r.id;
  const gvk = [id.group, id.version, id.kind].filter((p) => p !== '').join('_');
  return `${gvk}_${id.name}.yaml`.toLowerCase();
}
