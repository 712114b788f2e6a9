/**
 * Which kinds are cluster-scoped. kustomize reads this from the API paths of its built-in
 * OpenAPI data (a union of recent Kubernetes versions), keyed by apiVersion and kind: a kind it
 * does not know (a CRD, a made-up kind) counts as namespaced.
 */
const CLUSTER_SCOPED: Record<string, string[]> = {
  v1: ['ComponentStatus', 'Namespace', 'Node', 'NodeProxyOptions', 'PersistentVolume'],
  'admissionregistration.k8s.io/v1': [
    'MutatingWebhookConfiguration',
    'ValidatingWebhookConfiguration',
    'ValidatingAdmissionPolicy',
    'ValidatingAdmissionPolicyBinding',
    'MutatingAdmissionPolicy',
    'MutatingAdmissionPolicyBinding',
  ],
  'admissionregistration.k8s.io/v1beta1': [
    'MutatingWebhookConfiguration',
    'ValidatingWebhookConfiguration',
    'ValidatingAdmissionPolicy',
    'ValidatingAdmissionPolicyBinding',
    'MutatingAdmissionPolicy',
    'MutatingAdmissionPolicyBinding',
  ],
  'admissionregistration.k8s.io/v1alpha1': [
    'ValidatingAdmissionPolicy',
    'ValidatingAdmissionPolicyBinding',
    'MutatingAdmissionPolicy',
    'MutatingAdmissionPolicyBinding',
  ],
  'apiextensions.k8s.io/v1': ['CustomResourceDefinition'],
  'apiextensions.k8s.io/v1beta1': ['CustomResourceDefinition'],
  'apiregistration.k8s.io/v1': ['APIService'],
  'apiregistration.k8s.io/v1beta1': ['APIService'],
  'authentication.k8s.io/v1': ['TokenReview', 'SelfSubjectReview'],
  'authentication.k8s.io/v1beta1': ['TokenReview', 'SelfSubjectReview'],
  'authentication.k8s.io/v1alpha1': ['SelfSubjectReview'],
  'authorization.k8s.io/v1': ['SelfSubjectAccessReview', 'SelfSubjectRulesReview', 'SubjectAccessReview'],
  'authorization.k8s.io/v1beta1': ['SelfSubjectAccessReview', 'SelfSubjectRulesReview', 'SubjectAccessReview'],
  'certificates.k8s.io/v1': ['CertificateSigningRequest'],
  'certificates.k8s.io/v1beta1': ['CertificateSigningRequest', 'ClusterTrustBundle'],
  'certificates.k8s.io/v1alpha1': ['ClusterTrustBundle'],
  // only v1beta1: kustomize's embedded schema is Kubernetes 1.21's, where later versions do not exist (so they count as namespaced)
  'flowcontrol.apiserver.k8s.io/v1beta1': ['FlowSchema', 'PriorityLevelConfiguration'],
  'internal.apiserver.k8s.io/v1alpha1': ['StorageVersion'],
  'networking.k8s.io/v1': ['IngressClass', 'IPAddress', 'ServiceCIDR'],
  'networking.k8s.io/v1beta1': ['IngressClass', 'IPAddress', 'ServiceCIDR'],
  'networking.k8s.io/v1alpha1': ['IPAddress', 'ServiceCIDR'],
  'node.k8s.io/v1': ['RuntimeClass'],
  'node.k8s.io/v1beta1': ['RuntimeClass'],
  'node.k8s.io/v1alpha1': ['RuntimeClass'],
  'policy/v1beta1': ['PodSecurityPolicy'],
  'rbac.authorization.k8s.io/v1': ['ClusterRole', 'ClusterRoleBinding'],
  'rbac.authorization.k8s.io/v1beta1': ['ClusterRole', 'ClusterRoleBinding'],
  'rbac.authorization.k8s.io/v1alpha1': ['ClusterRole', 'ClusterRoleBinding'],
  'resource.k8s.io/v1': ['DeviceClass', 'ResourceSlice'],
  'resource.k8s.io/v1beta1': ['DeviceClass', 'ResourceSlice'],
  'resource.k8s.io/v1beta2': ['DeviceClass', 'ResourceSlice'],
  'resource.k8s.io/v1alpha3': ['DeviceClass', 'ResourceSlice', 'DeviceTaintRule'],
  'scheduling.k8s.io/v1': ['PriorityClass'],
  'scheduling.k8s.io/v1beta1': ['PriorityClass'],
  'scheduling.k8s.io/v1alpha1': ['PriorityClass'],
  'storage.k8s.io/v1': ['CSIDriver', 'CSINode', 'StorageClass', 'VolumeAttachment', 'VolumeAttributesClass'],
  'storage.k8s.io/v1beta1': ['CSIDriver', 'CSINode', 'StorageClass', 'VolumeAttachment', 'VolumeAttributesClass'],
  'storage.k8s.io/v1alpha1': ['VolumeAttachment', 'VolumeAttributesClass'],
  'storagemigration.k8s.io/v1alpha1': ['StorageVersionMigration'],
};

const clusterScoped = new Set<string>();
for (const [apiVersion, kinds] of Object.entries(CLUSTER_SCOPED)) for (const k of kinds) clusterScoped.add(`${apiVersion}\0${k}`);

export function isClusterScoped(apiVersion: string, kind: string): boolean {
  return clusterScoped.has(`${apiVersion}\0${kind}`);
}
