/** The Kubernetes versions whose schemas are embedded, and how each is loaded (a part of the CLI bundle of its own). */
import type { EmbeddedSchemas } from './embedded.js';

/** The versions shipped, newest first: the first is the default. */
export const SHIPPED: readonly { minor: string; load: () => Promise<EmbeddedSchemas> }[] = [
  { minor: '1.36', load: async () => (await import('./kubernetes-v1.36.generated.js')).KUBERNETES_V1_36 },
  { minor: '1.32', load: async () => (await import('./kubernetes-v1.32.generated.js')).KUBERNETES_V1_32 },
];

/** The Kubernetes versions whose schemas are shipped, as `--kubernetes-version` takes them. */
export const KUBERNETES_VERSIONS: readonly string[] = SHIPPED.map((v) => v.minor);

/** The version validation uses unless told. */
export const DEFAULT_KUBERNETES_VERSION: string = KUBERNETES_VERSIONS[0]!;
