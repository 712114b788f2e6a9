// Plausible Kubernetes objects for the fuzz trees: an "app" is a workload (Deployment,
// StatefulSet with volumeClaimTemplates, DaemonSet, Job or CronJob) with the objects around it
// (Service, Ingress, HPA, PDB, ServiceAccount and RBAC, ConfigMap, Secret, PVC), wired by name
// so that kustomize's name references, label selectors and vars have something to follow.

export const IMAGES = ['nginx', 'busybox', 'redis', 'example.com/team/api', 'registry.local:5000/web', 'gcr.io/proj/worker'];
const TAGS = ['1.25', 'latest', 'v2.3.1', '7', 'stable'];
const DIGEST = 'sha256:' + 'a1b2c3d4'.repeat(8);

/** String values that exercise the output writer: quoting, block scalars, folding, unicode. */
export const TRICKY_STRINGS = [
  'plain',
  'yes',
  'no',
  'on',
  'true',
  '0123',
  '1.0',
  '1e3',
  '0x1F',
  '1:20',
  '',
  ' leading space',
  'trailing space ',
  'a: b',
  'x #y',
  '#hash',
  '- dash',
  '*star',
  '&anchor',
  '!bang',
  '@at',
  '%pct',
  '{curly}',
  '[square]',
  'comma, separated',
  "it's",
  'say "hi"',
  'tab\there',
  'héllo ✓',
  'line one\nline two\n',
  'no trailing newline\nsecond',
  'keep\n\n',
  '  indented\nfirst\n',
  'null',
  '~',
  'a very long value that goes on and on past the eighty column limit so that the writer has to fold it somewhere sensible',
  'https://example.com/path?query=1&b=2',
  'key=value',
  '$(NOT_A_VAR)',
];

/**
 * Texts a patch writes unquoted where the resource holds a string: YAML reads them as dates,
 * numbers, booleans. kustomize keeps the old value's quoting style for the new text, so these
 * exercise how a merge carries a style over (the smp-styled-scalars fixture). No date with a
 * time of day: see divergences.mjs.
 */
export const PLAIN_SCALARS = ['2001-12-14', '0123', '9090', 'true', 'yes', 'off', '1.5', '1e3', '0x1F', '0o17', '.inf', '12:30'];

/**
 * A value to be written unquoted whatever it reads as: the `yaml` package would quote it, so it
 * is marked here and the mark is taken off the written text (tree.mjs's `yaml`, `json`).
 */
export const plain = (text) => `@@plain:${text}@@`;
const MARKED = /(["']?)@@plain:(.*?)@@\1/g;
/** YAML text with its marked values written plain. */
export const unmarkPlainYaml = (text) => text.replace(MARKED, '$2');
/** JSON text with its marked values as the strings they are (JSON has no plain scalars). */
export const unmarkPlainJson = (text) => text.replace(MARKED, '$1$2$1');

/** An image reference as people write them: bare, tagged, with a digest, with a registry port. */
export function imageRef(rng, name) {
  const r = rng.next();
  if (r < 0.25) return name;
  if (r < 0.85) return `${name}:${rng.pick(TAGS)}`;
  if (r < 0.95) return `${name}@${DIGEST}`;
  return `${name}:${rng.pick(TAGS)}@${DIGEST}`;
}

export { DIGEST, TAGS };

function container(rng, app, name, refs) {
  const c = { name, image: imageRef(rng, rng.pick(IMAGES)) };
  if (rng.chance(0.3)) c.command = ['/bin/run', `--name=$(${rng.pick(VAR_NAMES)})`];
  if (rng.chance(0.3)) c.args = ['--verbose', `--peer=$(${rng.pick(VAR_NAMES)})`];
  const env = [{ name: 'MODE', value: rng.pick(['dev', 'prod', 'yes', '1']) }];
  if (refs.configMap && rng.chance(0.6)) env.push({ name: 'SETTING', valueFrom: { configMapKeyRef: { name: refs.configMap, key: 'setting' } } });
  if (refs.secret && rng.chance(0.4)) env.push({ name: 'TOKEN', valueFrom: { secretKeyRef: { name: refs.secret, key: 'token' } } });
  if (rng.chance(0.2)) env.push({ name: 'POD_NS', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } });
  c.env = env;
  const envFrom = [];
  if (refs.envConfigMap) envFrom.push({ configMapRef: { name: refs.envConfigMap } });
  if (refs.secret && rng.chance(0.3)) envFrom.push({ secretRef: { name: refs.secret } });
  if (envFrom.length) c.envFrom = envFrom;
  if (rng.chance(0.7)) c.ports = [{ name: 'http', containerPort: rng.pick([80, 8080, 9090]) }];
  if (rng.chance(0.3)) c.resources = { limits: { cpu: rng.pick(['100m', '1', 0.5]), memory: '128Mi' } };
  if (refs.configMap && rng.chance(0.5)) c.volumeMounts = [{ name: 'config', mountPath: '/etc/config' }];
  return c;
}

export const VAR_NAMES = ['SVC_NAME', 'CFG_NAME', 'APP_IMAGE', 'PEER_PORT'];

function podSpec(rng, app, refs) {
  const spec = { containers: [container(rng, app, 'main', refs)] };
  if (rng.chance(0.3)) spec.containers.push(container(rng, app, 'sidecar', refs));
  if (rng.chance(0.15)) spec.initContainers = [container(rng, app, 'init', refs)];
  if (refs.serviceAccount) spec.serviceAccountName = refs.serviceAccount;
  const volumes = [];
  if (refs.configMap) volumes.push({ name: 'config', configMap: { name: refs.configMap } });
  if (refs.secret && rng.chance(0.5)) volumes.push({ name: 'secret', secret: { secretName: refs.secret } });
  if (refs.pvc) volumes.push({ name: 'data', persistentVolumeClaim: { claimName: refs.pvc } });
  if (rng.chance(0.15)) volumes.push({ name: 'projected', projected: { sources: [{ configMap: { name: refs.configMap ?? 'missing' } }] } });
  if (volumes.length) spec.volumes = volumes;
  if (rng.chance(0.15)) spec.imagePullSecrets = [{ name: refs.secret ?? 'pull-secret' }];
  return spec;
}

function meta(name, labels, rng) {
  const m = { name };
  if (labels && rng.chance(0.8)) m.labels = { ...labels };
  if (rng.chance(0.2)) m.annotations = { 'note.example.com/owner': rng.pick(TRICKY_STRINGS.slice(0, 12)) };
  return m;
}

/** The objects of one app. `refs` names what the workload refers to (some generated elsewhere). */
export function appObjects(rng, app, refs) {
  const labels = { app };
  if (rng.chance(0.3)) labels.tier = rng.pick(['frontend', 'backend']);
  const out = [];
  const workloadKind = rng.pick(['Deployment', 'Deployment', 'Deployment', 'StatefulSet', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob']);
  const template = { metadata: { labels: { ...labels } }, spec: podSpec(rng, app, refs) };
  if (workloadKind === 'Deployment' || workloadKind === 'StatefulSet' || workloadKind === 'DaemonSet') {
    const spec = { selector: { matchLabels: { ...labels } }, template };
    if (workloadKind !== 'DaemonSet' && rng.chance(0.8)) spec.replicas = rng.int(1, 5);
    if (workloadKind === 'StatefulSet') {
      spec.serviceName = app;
      spec.volumeClaimTemplates = [
        { metadata: { name: 'data', ...(rng.chance(0.3) ? { labels: { app } } : {}) }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } },
      ];
    }
    if (workloadKind === 'Deployment' && rng.chance(0.2)) spec.strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: 0 } };
    out.push({ apiVersion: 'apps/v1', kind: workloadKind, metadata: meta(app, labels, rng), spec });
  } else if (workloadKind === 'Job') {
    template.spec.restartPolicy = 'Never';
    out.push({ apiVersion: 'batch/v1', kind: 'Job', metadata: meta(app, labels, rng), spec: { backoffLimit: 2, template } });
  } else {
    template.spec.restartPolicy = 'OnFailure';
    out.push({
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: meta(app, labels, rng),
      spec: { schedule: rng.pick(['*/5 * * * *', '0 0 * * *', '@hourly']), jobTemplate: { spec: { template } } },
    });
  }
  if (workloadKind !== 'Job' && workloadKind !== 'CronJob' && rng.chance(0.8)) {
    out.push({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: meta(app, labels, rng),
      spec: { selector: { ...labels }, ports: [{ name: 'http', port: rng.pick([80, 443, 8080]), targetPort: rng.pick(['http', 8080]) }] },
    });
    if (rng.chance(0.3)) {
      out.push({
        apiVersion: 'networking.k8s.io/v1',
        kind: 'Ingress',
        metadata: meta(app, undefined, rng),
        spec: {
          ...(refs.secret && rng.chance(0.5) ? { tls: [{ hosts: [`${app}.example.com`], secretName: refs.secret }] } : {}),
          rules: [
            {
              host: `${app}.example.com`,
              http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: app, port: { name: 'http' } } } }] },
            },
          ],
        },
      });
    }
  }
  if (workloadKind === 'Deployment' && rng.chance(0.3)) {
    out.push({
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: meta(app, undefined, rng),
      spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: app }, minReplicas: 1, maxReplicas: rng.int(2, 10) },
    });
  }
  if (rng.chance(0.15)) {
    out.push({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: meta(app, labels, rng), spec: { minAvailable: 1, selector: { matchLabels: { ...labels } } } });
  }
  if (refs.serviceAccount) {
    out.push({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: meta(refs.serviceAccount, labels, rng) });
    if (rng.chance(0.6)) {
      const cluster = rng.chance(0.3);
      const roleKind = cluster ? 'ClusterRole' : 'Role';
      const roleName = `${app}-reader`;
      out.push({
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: roleKind,
        metadata: meta(roleName, undefined, rng),
        rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'], ...(refs.configMap ? { resourceNames: [refs.configMap] } : {}) }],
      });
      const subject = { kind: 'ServiceAccount', name: refs.serviceAccount };
      if (rng.chance(0.5)) subject.namespace = rng.pick(['default', 'team-a']);
      out.push({
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: cluster && rng.chance(0.6) ? 'ClusterRoleBinding' : 'RoleBinding',
        metadata: meta(`${app}-reader`, undefined, rng),
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: roleKind, name: roleName },
        subjects: [subject],
      });
    }
  }
  if (refs.configMapObject) {
    const data = { setting: rng.pick(TRICKY_STRINGS) };
    for (let i = rng.int(0, 3); i > 0; i--) data[rng.pick(['level', 'url', 'mode', 'text', 'flag', 'app.properties'])] = rng.pick(TRICKY_STRINGS);
    out.push({ apiVersion: 'v1', kind: 'ConfigMap', metadata: meta(refs.configMap, labels, rng), data });
  }
  if (refs.secretObject) {
    const s = { apiVersion: 'v1', kind: 'Secret', metadata: meta(refs.secret, labels, rng), type: 'Opaque' };
    if (rng.chance(0.5)) s.data = { token: 'c2VjcmV0', 'ca.crt': 'Y2VydA==' };
    else s.stringData = { token: rng.pick(TRICKY_STRINGS) };
    out.push(s);
  }
  if (refs.pvc) {
    out.push({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: meta(refs.pvc, labels, rng),
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: rng.pick(['1Gi', '500Mi']) } } },
    });
  }
  if (rng.chance(0.1)) {
    out.push({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: meta(`${app}-policy`, undefined, rng),
      spec: { podSelector: { matchLabels: { ...labels } }, policyTypes: ['Ingress'] },
    });
  }
  return out;
}

/** A CustomResourceDefinition for Widget (example.com) and the Widgets of an app. */
export function widgetCrd() {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      names: { kind: 'Widget', plural: 'widgets', singular: 'widget' },
      scope: 'Namespaced',
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
    },
  };
}

export function widget(rng, name, refs) {
  const spec = {
    size: rng.int(1, 4),
    image: imageRef(rng, rng.pick(IMAGES)),
    selector: { app: name },
    parts: [
      { name: 'a', weight: rng.int(1, 9) },
      { name: 'b', enabled: rng.chance(0.5), note: rng.pick(TRICKY_STRINGS) },
    ],
  };
  if (refs.configMap) spec.configRef = { name: refs.configMap };
  if (refs.secret) spec.secretRef = { name: refs.secret };
  if (rng.chance(0.3)) spec.extra = { ratio: rng.pick([0.5, 1.0, 2.5, 1e21]), nothing: null, when: '2001-12-14' };
  return { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name, labels: { app: name } }, spec };
}

/** `configurations:` for Widget: the fields kustomize's builtins should treat like their own. */
export function widgetConfiguration(rng) {
  const c = {};
  if (rng.chance(0.8)) {
    c.nameReference = [
      { kind: 'ConfigMap', version: 'v1', fieldSpecs: [{ kind: 'Widget', path: 'spec/configRef/name' }] },
      { kind: 'Secret', version: 'v1', fieldSpecs: [{ kind: 'Widget', path: 'spec/secretRef/name' }] },
    ];
  }
  if (rng.chance(0.5)) c.commonLabels = [{ kind: 'Widget', path: 'spec/selector', create: rng.chance(0.5) }];
  if (rng.chance(0.5)) c.images = [{ kind: 'Widget', path: 'spec/image' }];
  if (rng.chance(0.5)) c.replicas = [{ kind: 'Widget', path: 'spec/size', create: rng.chance(0.3) }];
  if (rng.chance(0.3)) c.varReference = [{ kind: 'Widget', path: 'spec/parts/note' }];
  if (rng.chance(0.3)) c.namespace = [{ kind: 'Widget', path: 'spec/targetNamespace', create: rng.chance(0.5) }];
  if (rng.chance(0.2)) c.commonAnnotations = [{ kind: 'Widget', path: 'spec/annotations', create: true }];
  return c;
}

/** `crds:` input (kustomize's old OpenAPI definitions form) declaring Widget's references. */
export function widgetCrdsDefinitions() {
  const ref = (kind) => ({ 'x-kubernetes-object-ref-api-version': 'v1', 'x-kubernetes-object-ref-kind': kind, $ref: 'k8s.io/api/core/v1.LocalObjectReference' });
  return {
    'example.com/widgets/v1.Widget': {
      Schema: {
        properties: {
          apiVersion: { type: 'string' },
          kind: { type: 'string' },
          metadata: { $ref: 'k8s.io/apimachinery/pkg/apis/meta/v1.ObjectMeta' },
          spec: { $ref: 'example.com/widgets/v1.WidgetSpec' },
        },
      },
      Dependencies: ['example.com/widgets/v1.WidgetSpec'],
    },
    'example.com/widgets/v1.WidgetSpec': {
      Schema: { properties: { configRef: ref('ConfigMap'), secretRef: ref('Secret') } },
      Dependencies: [],
    },
  };
}

/** An `openapi:` schema for Widget: `parts` merges by name under strategic merge. */
export function widgetOpenApi() {
  return {
    definitions: {
      'v1.Widget': {
        type: 'object',
        properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { type: 'object' }, spec: { $ref: '#/definitions/v1.WidgetSpec' } },
        'x-kubernetes-group-version-kind': [{ group: 'example.com', kind: 'Widget', version: 'v1' }],
      },
      'v1.WidgetSpec': {
        type: 'object',
        properties: {
          parts: { type: 'array', items: { $ref: '#/definitions/v1.WidgetPart' }, 'x-kubernetes-patch-merge-key': 'name', 'x-kubernetes-patch-strategy': 'merge' },
          size: { type: 'integer' },
        },
      },
      'v1.WidgetPart': { type: 'object', properties: { name: { type: 'string' }, weight: { type: 'integer' } } },
    },
  };
}
