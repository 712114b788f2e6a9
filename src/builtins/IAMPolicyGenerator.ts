import { KustomizeError } from '../errors.js';
import { Resource } from '../model/resource.js';
import type { Generator } from '../plugins/plugin.js';
import type { YMap } from '../yaml/value.js';
import { decodeConfig } from '../plugins/builtin-config.js';

interface IAMPolicyGeneratorArgs {
  cloud?: string;
  kubernetesService?: { namespace?: string; name?: string };
  serviceAccount?: { name?: string; projectId?: string };
}

/**
 * Generates the Kubernetes ServiceAccount bound to a cloud IAM service account through
 * workload identity. Only GKE is supported, as in kustomize.
 */
export class IAMPolicyGenerator implements Generator {
  static readonly kind = 'IAMPolicyGenerator';

  private constructor(readonly args: IAMPolicyGeneratorArgs) {}

  static fromConfig(config: YMap): IAMPolicyGenerator {
    return new IAMPolicyGenerator(
      decodeConfig<IAMPolicyGeneratorArgs>(
        config,
        {
          struct: 'IAMPolicyGeneratorArgs',
          fields: {
            cloud: 'string',
            kubernetesService: { struct: 'KubernetesService', fields: { namespace: 'string', name: 'string' } },
            serviceAccount: { struct: 'ServiceAccount', fields: { name: 'string', projectId: 'string' } },
          },
        },
        IAMPolicyGenerator.kind,
      ),
    );
  }

  generate(): Resource[] {
    const { cloud, kubernetesService: ksa = {}, serviceAccount: gsa = {} } = this.args;
    if (cloud !== 'gke') throw new KustomizeError('GENERATOR_FAILED', `cloud provider ${cloud ?? ''} not supported yet`);
    const metadata: YMap = {
      annotations: { 'iam.gke.io/gcp-service-account': `${gsa.name ?? ''}@${gsa.projectId ?? ''}.iam.gserviceaccount.com` },
      name: ksa.name ?? '',
    };
    if (ksa.namespace) metadata['namespace'] = ksa.namespace;
    return [new Resource({ apiVersion: 'v1', kind: 'ServiceAccount', metadata })];
  }
}
