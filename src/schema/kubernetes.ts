/**
 * The schemas of Kubernetes' own types, embedded for each version we ship (made by
 * scripts/compact-kubernetes-schemas.mjs; docs/validate.md says how), loaded when a validation
 * first needs them: a build never loads them.
 */
import { KustomizeError } from '../errors.js';
import { SchemaDocument } from './document.js';
import type { EmbeddedSchemas } from './embedded.js';
import { DEFAULT_KUBERNETES_VERSION, KUBERNETES_VERSIONS, SHIPPED } from './kubernetes-versions.js';
import type { SchemaLink, SchemaNode } from './node.js';

const REF_PREFIX = '#/components/schemas/';

/** The schemas of one Kubernetes version's types. */
export class KubernetesSchemas {
  private readonly document: SchemaDocument;
  private readonly byType = new Map<string, string>();

  constructor(private readonly data: EmbeddedSchemas) {
    this.document = new SchemaDocument((ref) => {
      const text = ref.startsWith(REF_PREFIX) ? data.definitions[ref.slice(REF_PREFIX.length)] : undefined;
      return text === undefined ? undefined : JSON.parse(text);
    }, `kubernetes ${data.version}`);
    for (const [apiVersion, kind, name] of data.types) this.byType.set(`${apiVersion} ${kind}`, name);
  }

  /** `v1.36.4` */
  get version(): string {
    return this.data.version;
  }

  /** The schema of resources of this apiVersion and kind, or undefined for a type Kubernetes does not have. */
  forType(apiVersion: string, kind: string): SchemaNode | undefined {
    const name = this.byType.get(`${apiVersion} ${kind}`);
    return name === undefined ? undefined : this.document.node(REF_PREFIX + name);
  }

  /** The apiVersion of Kubernetes' kind of this name (the last listed when several versions have it); undefined for a kind it does not have. */
  apiVersionOf(kind: string): string | undefined {
    let found: string | undefined;
    for (const [apiVersion, k] of this.data.types) if (k === kind && !apiVersion.endsWith('__internal')) found = apiVersion;
    return found;
  }

  /** Every object's `metadata`. */
  get objectMeta(): SchemaLink {
    return this.document.link(`${REF_PREFIX}io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta`);
  }
}

/**
 * The schemas of the Kubernetes version `version` names (`1.36`, `v1.36`, `1.36.4`: its minor
 * release); any other is a USAGE error listing those shipped.
 */
export function kubernetesSchemas(version: string = DEFAULT_KUBERNETES_VERSION): Promise<KubernetesSchemas> {
  const minor = /^v?(\d+\.\d+)(?:\.\d+)?$/.exec(version)?.[1];
  const found = SHIPPED.find((v) => v.minor === minor);
  if (!found) return Promise.reject(new KustomizeError('USAGE', `unknown Kubernetes version '${version}': the schemas shipped are those of ${KUBERNETES_VERSIONS.join(', ')}`));
  let made = READ.get(found.minor);
  if (!made) READ.set(found.minor, (made = found.load().then((data) => new KubernetesSchemas(data))));
  return made;
}

/**
 * The schemas of each version, read once per process: they never change, and what is read of
 * them (each definition parsed when first needed) is the same for every validation.
 */
const READ = new Map<string, Promise<KubernetesSchemas>>();
