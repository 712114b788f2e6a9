// Generates a large, deterministic kustomization tree for the benchmark.
//
//   import { generateTree } from './generate.mjs';
//   const info = generateTree('/tmp/tree', 5000);   // info.overlay is the directory to build
//
// or, standalone:  node bench/generate.mjs DIR N
//
// The tree (see bench/README.md for the long form):
//   bases/{web,api,data,ops}/     one file per "app" (Deployment or StatefulSet + Service, and
//                                 sometimes HPA, Ingress, ServiceAccount + RoleBinding), a Role,
//                                 a configMapGenerator entry per app (hash-suffixed, referenced
//                                 from the workload via envFrom / configMapKeyRef / volumes),
//                                 `labels` with selectors, `commonAnnotations`.
//   components/monitoring/        a Component: a ServiceMonitor, a label, a patch on every Deployment.
//   overlays/{dev,staging,prod}/  each composes the four bases and the component, and uses namePrefix,
//                                 namespace, commonLabels, labels, commonAnnotations, images,
//                                 replicas, configMapGenerator (new + behavior: merge), secretGenerator,
//                                 patches (SMP by label selector, JSON 6902 on named targets, a
//                                 name-regex target, SMP files without target) and replacements.
//
// The number of output resources is exactly N; the tree depends only on N (seeded PRNG).

import * as fs from 'node:fs';
import * as path from 'node:path';

// ---------------------------------------------------------------- deterministic PRNG

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ---------------------------------------------------------------- a small YAML emitter

// Plain (unquoted) when YAML would read the text back as the same string, as people write it.
const PLAIN_CHARS = /^[A-Za-z0-9_./:@=,%+~ -]+$/;
const NOT_STRING = /^(true|false|yes|no|on|off|y|n|null|~|[-+]?(\.inf|\.nan)|[-+]?[0-9][0-9_.:eExXoObB+-]*|[-+]?\.[0-9].*)$/i;

function scalar(v) {
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v === null) return 'null';
  const s = String(v);
  const plain =
    s !== '' &&
    PLAIN_CHARS.test(s) &&
    !NOT_STRING.test(s) &&
    !/^[-:?@%,~ ]( |$)/.test(s) &&
    !/^[@%, ]/.test(s) &&
    !s.includes(': ') &&
    !s.endsWith(':') &&
    !s.endsWith(' ');
  return plain ? s : JSON.stringify(s); // a JSON string is a valid YAML double-quoted scalar
}

function isScalar(v) {
  return v === null || typeof v !== 'object';
}

function emit(v, indent = '') {
  if (Array.isArray(v)) {
    if (v.length === 0) return ' []\n';
    let out = '\n';
    for (const item of v) {
      if (isScalar(item)) out += `${indent}- ${scalar(item)}\n`;
      else {
        const body = emitMap(item, indent + '  ');
        out += `${indent}- ${body.slice(indent.length + 2)}`;
      }
    }
    return out;
  }
  if (isScalar(v)) return ` ${scalar(v)}\n`;
  if (Object.keys(v).length === 0) return ' {}\n';
  return '\n' + emitMap(v, indent + '  ');
}

function emitMap(obj, indent) {
  let out = '';
  for (const [k, v] of Object.entries(obj)) {
    if (v === undefined) continue;
    if (typeof v === 'string' && v.includes('\n')) {
      out += `${indent}${scalar(k)}: |\n`;
      for (const line of v.replace(/\n$/, '').split('\n')) out += line === '' ? '\n' : `${indent}  ${line}\n`;
      continue;
    }
    // block sequences are written at the same indentation as their key (the kubectl/kustomize style)
    out += `${indent}${scalar(k)}:${emit(v, indent)}`;
  }
  return out;
}

export function toYaml(docs) {
  return docs.map((d) => emitMap(d, '')).join('---\n');
}

// ---------------------------------------------------------------- the tree

export const TEAMS = [
  { name: 'web', tier: 'frontend', port: 8080 },
  { name: 'api', tier: 'backend', port: 9090 },
  { name: 'data', tier: 'backend', port: 5432 },
  { name: 'ops', tier: 'ops', port: 3000 },
];

const pad = (i) => String(i).padStart(4, '0');
const appName = (i) => `app-${pad(i)}`;

/** The shape of app i (which optional resources it has); depends only on i. */
function appShape(i) {
  const stateful = i % 12 === 7;
  return {
    stateful,
    hpa: !stateful && i % 10 === 3,
    ingress: i % 10 === 5,
    sa: i % 8 === 1,
  };
}

/** Output resources app i contributes: workload, Service, generated env ConfigMap, extras. */
function appSize(i) {
  const s = appShape(i);
  return 3 + (s.hpa ? 1 : 0) + (s.ingress ? 1 : 0) + (s.sa ? 2 : 0);
}

// Resources that do not depend on N: one Role per base, and in the overlay/component:
// shared-config (generated), db-credentials (generated Secret), release-info, ServiceMonitor.
const FIXED = TEAMS.length + 4;
export const MIN_RESOURCES = FIXED + appSize(0);

function workload(i, team, rnd) {
  const name = appName(i);
  const s = appShape(i);
  const tier = team.tier;
  const labels = { app: name, tier };
  const env = [
    { name: 'APP_NAME', value: name },
    { name: 'LOG_LEVEL', valueFrom: { configMapKeyRef: { name: `${name}-env`, key: 'LOG_LEVEL' } } },
  ];
  if (tier === 'frontend') env.push({ name: 'UPSTREAM_HOST', value: 'placeholder' });
  if (tier === 'backend') {
    env.push({ name: 'DB_PASSWORD', valueFrom: { secretKeyRef: { name: 'db-credentials', key: 'password' } } });
  }
  const containers = [
    {
      name: 'app',
      image: `registry.local/shop/${team.name}-app:dev`,
      args: ['--port', String(team.port), '--verbose=false'],
      ports: [{ name: 'http', containerPort: team.port, protocol: 'TCP' }],
      env,
      envFrom: [{ configMapRef: { name: `${name}-env` } }],
      resources: {
        requests: { cpu: `${50 + Math.floor(rnd() * 10) * 25}m`, memory: `${64 * (1 + Math.floor(rnd() * 4))}Mi` },
      },
      readinessProbe: { httpGet: { path: '/healthz', port: 'http' }, periodSeconds: 10 },
      volumeMounts: [
        { name: 'shared', mountPath: '/etc/shared', readOnly: true },
        { name: 'tmp', mountPath: '/tmp' },
      ],
    },
  ];
  if (i % 4 === 0) {
    containers.push({
      name: 'log-shipper',
      image: 'busybox:1.36',
      command: ['sh', '-c', 'tail -F /var/log/app.log'],
      resources: { limits: { cpu: '50m', memory: '32Mi' } },
    });
  }
  const podSpec = {
    containers,
    volumes: [
      { name: 'shared', configMap: { name: 'shared-config' } },
      { name: 'tmp', emptyDir: {} },
    ],
  };
  if (s.sa) podSpec.serviceAccountName = name;
  if (i % 9 === 2) podSpec.initContainers = [{ name: 'migrate', image: 'nginx:1.25', args: ['true'] }];
  const template = { metadata: { labels: { ...labels } }, spec: podSpec };
  if (s.stateful) {
    return {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name, labels },
      spec: {
        serviceName: name,
        replicas: 1 + Math.floor(rnd() * 3),
        selector: { matchLabels: { app: name } },
        template,
        volumeClaimTemplates: [
          {
            metadata: { name: 'data' },
            spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '10Gi' } } },
          },
        ],
      },
    };
  }
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, labels },
    spec: {
      replicas: 1 + Math.floor(rnd() * 3),
      selector: { matchLabels: { app: name } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
      template,
    },
  };
}

function appDocs(i, team, rnd) {
  const name = appName(i);
  const s = appShape(i);
  const docs = [workload(i, team, rnd)];
  docs.push({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, labels: { app: name } },
    spec: {
      selector: { app: name },
      ports: [{ name: 'http', port: 80, targetPort: 'http', protocol: 'TCP' }],
      ...(s.stateful ? { clusterIP: 'None' } : {}),
    },
  });
  if (s.hpa) {
    docs.push({
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name },
        minReplicas: 2,
        maxReplicas: 10 + Math.floor(rnd() * 10),
        metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }],
      },
    });
  }
  if (s.ingress) {
    docs.push({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: { name, annotations: { 'nginx.ingress.kubernetes.io/rewrite-target': '/' } },
      spec: {
        ingressClassName: 'nginx',
        rules: [
          {
            host: `${name}.shop.example.com`,
            http: {
              paths: [
                { path: '/', pathType: 'Prefix', backend: { service: { name, port: { name: 'http' } } } },
              ],
            },
          },
        ],
      },
    });
  }
  if (s.sa) {
    docs.push({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name } });
    docs.push({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: `${team.name}-reader` },
      subjects: [{ kind: 'ServiceAccount', name, namespace: 'default' }],
    });
  }
  return docs;
}

function write(file, text) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

/**
 * Writes the tree for exactly `n` output resources under `root` (which must not exist or be
 * empty). Returns { overlay, resources, apps, files, counts }.
 */
/** The overlays, each building all N resources; prod is the one `overlay` names. */
export const ENVIRONMENTS = ['dev', 'staging', 'prod'];

export function generateTree(root, n) {
  if (!Number.isInteger(n) || n < MIN_RESOURCES) throw new Error(`resource count must be an integer >= ${MIN_RESOURCES}`);
  const rnd = mulberry32(0x6b757374 ^ n);
  fs.mkdirSync(root, { recursive: true });

  // How many apps fit; the remainder (< one app) becomes plain ConfigMaps in the ops base.
  let apps = 0;
  let used = FIXED;
  while (used + appSize(apps) <= n) used += appSize(apps++);
  const extras = n - used;

  const counts = {};
  const count = (docs) => {
    for (const d of docs) counts[d.kind] = (counts[d.kind] ?? 0) + 1;
  };
  let files = 0;
  const put = (rel, text) => {
    write(path.join(root, rel), text);
    files++;
  };

  // ---- bases
  for (const [b, team] of TEAMS.entries()) {
    const dir = `bases/${team.name}`;
    const resources = [];
    const generators = [];
    for (let i = b; i < apps; i += TEAMS.length) {
      const docs = appDocs(i, team, rnd);
      count(docs);
      counts.ConfigMap = (counts.ConfigMap ?? 0) + 1; // the generated env ConfigMap
      put(`${dir}/apps/${appName(i)}.yaml`, toYaml(docs));
      resources.push(`apps/${appName(i)}.yaml`);
      generators.push({
        name: `${appName(i)}-env`,
        literals: [
          `APP_NAME=${appName(i)}`,
          `LOG_LEVEL=${['debug', 'info', 'warn'][Math.floor(rnd() * 3)]}`,
          `PORT=${team.port}`,
          `FEATURE_FLAGS=${['a', 'b', 'c', 'd'].filter(() => rnd() < 0.5).join(',') || 'none'}`,
        ],
      });
    }
    const role = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: `${team.name}-reader` },
      rules: [{ apiGroups: [''], resources: ['configmaps', 'services'], verbs: ['get', 'list', 'watch'] }],
    };
    count([role]);
    put(`${dir}/role.yaml`, toYaml([role]));
    resources.push('role.yaml');
    if (team.name === 'ops' && extras > 0) {
      const docs = [];
      for (let k = 0; k < extras; k++) {
        docs.push({
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: `extra-config-${k}` },
          data: { 'settings.ini': `[main]\nindex = ${k}\nseed = ${Math.floor(rnd() * 1e6)}\n` },
        });
      }
      count(docs);
      put(`${dir}/extras.yaml`, toYaml(docs));
      resources.push('extras.yaml');
    }
    const kust = {
      apiVersion: 'kustomize.config.k8s.io/v1beta1',
      kind: 'Kustomization',
      labels: [
        { pairs: { team: team.name }, includeSelectors: true },
        // `includeTemplates` also labels volumeClaimTemplates in kustomize v5.5 (kubectl's) but not
        // in newer kustomize (which wants `includeVolumeClaimTemplates`), so only the bases without
        // StatefulSets use it.
        ...(team.name === 'ops' ? [] : [{ pairs: { 'shop.example.com/tier-class': 'standard' }, includeTemplates: true }]),
      ],
      commonAnnotations: { 'shop.example.com/owner': `team-${team.name}` },
      resources,
      configMapGenerator: generators,
    };
    put(`${dir}/kustomization.yaml`, toYaml([kust]));
  }

  // ---- component
  const serviceMonitor = {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'ServiceMonitor',
    metadata: { name: 'shop-apps' },
    spec: {
      selector: { matchExpressions: [{ key: 'team', operator: 'Exists' }] },
      endpoints: [{ port: 'http', interval: '30s', path: '/metrics' }],
    },
  };
  count([serviceMonitor]);
  put('components/monitoring/servicemonitor.yaml', toYaml([serviceMonitor]));
  put(
    'components/monitoring/kustomization.yaml',
    toYaml([
      {
        apiVersion: 'kustomize.config.k8s.io/v1alpha1',
        kind: 'Component',
        resources: ['servicemonitor.yaml'],
        labels: [{ pairs: { 'monitoring.shop.example.com/scrape': 'true' } }],
        patches: [
          {
            target: { kind: 'Deployment' },
            patch: toYaml([
              {
                apiVersion: 'apps/v1',
                kind: 'Deployment',
                metadata: { name: 'any' },
                spec: {
                  template: {
                    metadata: { annotations: { 'prometheus.io/scrape': 'true', 'prometheus.io/path': '/metrics' } },
                  },
                },
              },
            ]),
          },
        ],
      },
    ]),
  );

  // ---- overlays: three environments over the same bases, as most trees have
  const releaseInfo = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'release-info', annotations: { 'config.kubernetes.io/local-config': 'false' } },
    data: { version: '2024.11.3', tag: 'v2.4.1', channel: 'stable' },
  };
  count([releaseInfo]);
  counts.ConfigMap++; // shared-config
  counts.Secret = (counts.Secret ?? 0) + 1; // db-credentials
  for (const env of ENVIRONMENTS) {
    const ov = `overlays/${env}`;
    put(`${ov}/release-info.yaml`, toYaml([releaseInfo]));
    put(`${ov}/app.properties`, 'cache.size=512\ncache.ttl=300\nfeature.search=on\n');

    put(
      `${ov}/patches/backend-resources.yaml`,
      toYaml([
        {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: { name: 'backend' },
          spec: {
            template: {
              spec: {
                containers: [
                  {
                    name: 'app',
                    resources: { limits: { cpu: '1', memory: '1Gi' } },
                    env: [{ name: 'GOMAXPROCS', value: '2' }],
                  },
                ],
              },
            },
          },
        },
      ]),
    );
    // patches without a target: the patch names its resource itself (original, unprefixed name)
    const untargeted = [];
    const firstDeployment = [...Array(apps).keys()].filter((i) => !appShape(i).stateful);
    for (const i of firstDeployment.slice(0, 3)) {
      const f = `patches/${appName(i)}-strategy.yaml`;
      put(
        `${ov}/${f}`,
        toYaml([
          {
            apiVersion: 'apps/v1',
            kind: 'Deployment',
            metadata: { name: appName(i) },
            spec: {
              strategy: { rollingUpdate: { maxSurge: '25%' } },
              template: { spec: { terminationGracePeriodSeconds: 60 } },
            },
          },
        ]),
      );
      untargeted.push({ path: f });
    }
    put(
      `${ov}/patches/service-lb.yaml`,
      toYaml([{ apiVersion: 'v1', kind: 'Service', metadata: { name: appName(0) }, spec: { type: 'LoadBalancer' } }]),
    );
    untargeted.push({ path: 'patches/service-lb.yaml' });

    // JSON 6902 patches on specific targets: one per 50 apps
    const jsonPatches = [];
    for (let k = 0; k * 50 < apps; k++) {
      const candidates = firstDeployment.filter((i) => i >= k * 50 && i < (k + 1) * 50);
      if (candidates.length === 0) continue;
      const i = candidates[Math.floor(rnd() * candidates.length)];
      jsonPatches.push({
        target: { group: 'apps', version: 'v1', kind: 'Deployment', name: appName(i) },
        patch: [
            `- op: add`,
            `  path: /spec/template/spec/containers/0/args/-`,
            `  value: --cache-size=${64 * (k + 1)}`,
            `- op: replace`,
            `  path: /spec/replicas`,
            `  value: ${2 + (k % 3)}`,
            `- op: add`,
            `  path: /metadata/annotations/patched-by`,
            `  value: json6902-${k}`,
            '',
          ].join('\n'),
      });
    }
    // a JSON 6902 patch on a name regex (the first ten Services)
    jsonPatches.push({
      target: { version: 'v1', kind: 'Service', name: 'app-000[0-9]' },
      patch: '- op: add\n  path: /spec/sessionAffinity\n  value: ClientIP\n',
    });

    const replicas = [];
    for (let k = 0; k < Math.max(1, Math.floor(apps / 100)); k++) {
      const i = firstDeployment[(k * 37) % firstDeployment.length];
      if (!replicas.some((r) => r.name === appName(i))) replicas.push({ name: appName(i), count: 3 + (k % 5) });
    }

    const overlay = {
      apiVersion: 'kustomize.config.k8s.io/v1beta1',
      kind: 'Kustomization',
      namePrefix: `${env}-`,
      namespace: `shop-${env}`,
      commonLabels: { 'app.kubernetes.io/part-of': 'shop' },
      labels: [{ pairs: { env } }],
      commonAnnotations: { 'shop.example.com/oncall': 'platform@shop.example.com', 'shop.example.com/cost-center': 'cc-1234' },
      resources: [...TEAMS.map((t) => `../../bases/${t.name}`), 'release-info.yaml'],
      components: ['../../components/monitoring'],
      images: [
        { name: 'registry.local/shop/web-app', newName: 'ghcr.io/shop/web-app', newTag: '2.4.1' },
        { name: 'registry.local/shop/api-app', newName: 'ghcr.io/shop/api-app' },
        { name: 'busybox', newTag: '1.36.1' },
        { name: 'nginx', digest: 'sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef' },
      ],
      replicas,
      configMapGenerator: [
        { name: 'shared-config', files: ['app.properties'], literals: ['REGION=eu-west-1', `ENVIRONMENT=${env}`] },
        { name: `${appName(0)}-env`, behavior: 'merge', literals: ['LOG_LEVEL=error', 'EXTRA=1'] },
      ],
      secretGenerator: [{ name: 'db-credentials', literals: ['username=shop', 'password=s3cr3t'] }],
      patches: [
        { path: 'patches/backend-resources.yaml', target: { kind: 'Deployment', labelSelector: 'tier=backend' } },
        ...untargeted,
        ...jsonPatches,
      ],
      replacements: [
        {
          source: { kind: 'ConfigMap', name: 'release-info', fieldPath: 'data.version' },
          targets: [
            {
              select: { kind: 'Deployment' },
              fieldPaths: ['spec.template.metadata.annotations.[shop.example.com/release]'],
              options: { create: true },
            },
          ],
        },
        {
          source: { kind: 'Service', name: appName(1), fieldPath: 'metadata.name' },
          targets: [
            {
              select: { kind: 'Deployment', labelSelector: 'tier=frontend' },
              fieldPaths: ['spec.template.spec.containers.[name=app].env.[name=UPSTREAM_HOST].value'],
            },
          ],
        },
        {
          source: { kind: 'ConfigMap', name: 'release-info', fieldPath: 'data.tag' },
          targets: [
            {
              select: { kind: 'Deployment', labelSelector: 'team=api' },
              reject: [{ name: appName(1) }],
              fieldPaths: ['spec.template.spec.containers.[name=app].image'],
              options: { delimiter: ':', index: 1 },
            },
          ],
        },
        {
          source: { kind: 'ConfigMap', name: 'release-info', fieldPath: 'data.channel' },
          targets: [
            { select: { kind: 'StatefulSet' }, fieldPaths: ['metadata.annotations.[shop.example.com/channel]'], options: { create: true } },
            { select: { kind: 'HorizontalPodAutoscaler' }, fieldPaths: ['metadata.labels.channel'], options: { create: true } },
          ],
        },
      ],
    };
    put(`${ov}/kustomization.yaml`, toYaml([overlay]));
  }

  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  if (total !== n) throw new Error(`internal: generated ${total} resources, wanted ${n}`);
  const overlays = ENVIRONMENTS.map((env) => path.join(root, 'overlays', env));
  return { root, overlay: overlays.at(-1), overlays, resources: total, apps, files, counts };
}

// ---------------------------------------------------------------- standalone use

if (import.meta.url === `file://${process.argv[1]}`) {
  const [dir, n] = process.argv.slice(2);
  if (!dir || !n) {
    console.error('usage: node bench/generate.mjs DIR N');
    process.exit(2);
  }
  const info = generateTree(path.resolve(dir), Number(n));
  console.log(JSON.stringify({ ...info }, null, 2));
}
