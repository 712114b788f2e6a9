/**
 * Which kinds are cluster-scoped, by apiVersion and kind: kustomize's own list (kyaml's
 * `precomputedIsNamespaceScoped`, which its built-in Kubernetes 1.21 schema agrees with) at the
 * commit the conformance corpus comes from. Any other kind (a newer Kubernetes kind, a CRD, a
 * made-up kind) counts as namespaced, as there: kustomize sets `namespace:` on, say, a
 * `resource.k8s.io/v1` DeviceClass. ValidatingAdmissionPolicy and its binding in
 * `admissionregistration.k8s.io/v1` were marked cluster-scoped upstream after kustomize v5.5
 * (whose kubectl still gives them a namespace); the corpus's kustomize wins.
 */
const CLUSTER_SCOPED: Record<string, string[]> = {
  v1: ['ComponentStatus', 'Namespace', 'Node', 'NodeProxyOptions', 'PersistentVolume'],
  'admissionregistration.k8s.io/v1': ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding'],
  'admissionregistration.k8s.io/v1beta1': ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration'],
  'apiextensions.k8s.io/v1': ['CustomResourceDefinition'],
  'apiextensions.k8s.io/v1beta1': ['CustomResourceDefinition'],
  'apiregistration.k8s.io/v1': ['APIService'],
  'apiregistration.k8s.io/v1beta1': ['APIService'],
  'certificates.k8s.io/v1': ['CertificateSigningRequest'],
  'certificates.k8s.io/v1beta1': ['CertificateSigningRequest'],
  // only v1beta1: later versions do not exist in Kubernetes 1.21
  'flowcontrol.apiserver.k8s.io/v1beta1': ['FlowSchema', 'PriorityLevelConfiguration'],
  'networking.k8s.io/v1': ['IngressClass'],
  'networking.k8s.io/v1beta1': ['IngressClass'],
  'node.k8s.io/v1': ['RuntimeClass'],
  'node.k8s.io/v1beta1': ['RuntimeClass'],
  'policy/v1beta1': ['PodSecurityPolicy'],
  'rbac.authorization.k8s.io/v1': ['ClusterRole', 'ClusterRoleBinding'],
  'rbac.authorization.k8s.io/v1beta1': ['ClusterRole', 'ClusterRoleBinding'],
  'scheduling.k8s.io/v1': ['PriorityClass'],
  'scheduling.k8s.io/v1beta1': ['PriorityClass'],
  'storage.k8s.io/v1': ['CSIDriver', 'CSINode', 'StorageClass', 'VolumeAttachment'],
  'storage.k8s.io/v1beta1': ['CSIDriver', 'CSINode', 'StorageClass', 'VolumeAttachment'],
};

const clusterScoped = new Set<string>();
for (const [apiVersion, kinds] of Object.entries(CLUSTER_SCOPED)) for (const k of kinds) clusterScoped.add(`${apiVersion}\0${k}`);

export function isClusterScoped(apiVersion: string, kind: string): boolean {
  return clusterScoped.has(`${apiVersion}\0${kind}`);
}
