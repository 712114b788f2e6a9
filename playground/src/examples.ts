/** A preloaded example: a tree of files and the directory to build. */
export interface Example {
  title: string;
  files: Record<string, string>;
  /** the directory built first */
  target: string;
  /** the file shown first (default: the target's kustomization) */
  open?: string;
}

const deployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 1
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: web
        image: nginx:1.27
        ports:
        - containerPort: 80
`;

const service = `apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector:
    app: web
  ports:
  - port: 80
    targetPort: 80
`;

/** the Deployment, its container's environment from the objects `refs` lists (YAML list items) */
const deploymentWithEnvFrom = (refs: string) => deployment.replace('        ports:\n        - containerPort: 80\n', `        envFrom:\n${refs}`);

const composition = `# A Composition: transformer configs run in sequence, each step's output the next one's input.
apiVersion: kustomize.config.k8s.io/v1alpha1
kind: Composition
transformers:
# reads its paths as a Kustomization's resources: does
- apiVersion: builtin
  kind: ResourceAccumulator
  metadata:
    name: resources
  paths:
  - deployment.yaml
  - service.yaml
# generators append; the hash suffix comes when the build finishes, and references follow it
- apiVersion: builtin
  kind: ConfigMapGenerator
  metadata:
    name: web-config
  name: web-config
  literals:
  - LOG_LEVEL=info
# a builtin without fieldSpecs gets those of its kustomization field (here namePrefix's)
- apiVersion: builtin
  kind: PrefixTransformer
  metadata:
    name: prefix
  prefix: shop-
# fieldSpecs given: labels on metadata only, not on selectors
- apiVersion: builtin
  kind: LabelTransformer
  metadata:
    name: labels
  labels:
    app.kubernetes.io/part-of: shop
  fieldSpecs:
  - path: metadata/labels
    create: true
- apiVersion: builtin
  kind: ImageTagTransformer
  metadata:
    name: nginx
  imageTag:
    name: nginx
    newTag: 1.27.3-alpine
- apiVersion: builtin
  kind: PatchTransformer
  metadata:
    name: memory-limit
  target:
    kind: Deployment
  patch: |-
    - op: add
      path: /spec/template/spec/containers/0/resources
      value:
        limits:
          memory: 256Mi
`;

/** a patch of the overlay's Deployment: a value of the wrong type, and an image the overlay's `images` changes later */
const wrongTypePatch = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: "three"
  template:
    spec:
      containers:
      - name: web
        image: nginx:1.27-alpine
`;

export const EXAMPLES: Example[] = [
  {
    title: 'Base and overlays (with a component)',
    target: 'overlays/production',
    files: {
      'base/kustomization.yaml': 'resources:\n- deployment.yaml\n- service.yaml\nlabels:\n- pairs:\n    app.kubernetes.io/name: web\n',
      'base/deployment.yaml': deployment,
      'base/service.yaml': service,
      'components/monitoring/kustomization.yaml':
        'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\ncommonAnnotations:\n  prometheus.io/scrape: "true"\n  prometheus.io/port: "80"\n',
      'overlays/staging/kustomization.yaml': 'namespace: staging\nnamePrefix: staging-\nresources:\n- ../../base\n',
      'overlays/production/kustomization.yaml':
        'namespace: production\nnamePrefix: prod-\nresources:\n- ../../base\ncomponents:\n- ../../components/monitoring\nreplicas:\n- name: web\n  count: 3\nimages:\n- name: nginx\n  newTag: "1.27.3"\n',
    },
  },
  {
    title: 'A patch with a wrong type (diagnostics, hover)',
    target: 'overlays/production',
    open: 'overlays/production/web-patch.yaml',
    files: {
      'base/kustomization.yaml': 'resources:\n- deployment.yaml\n- service.yaml\n',
      'base/deployment.yaml': deployment,
      'base/service.yaml': service,
      'overlays/staging/kustomization.yaml': 'namePrefix: staging-\nresources:\n- ../../base\n',
      'overlays/production/kustomization.yaml': 'namePrefix: prod-\nresources:\n- ../../base\npatches:\n- path: web-patch.yaml\nimages:\n- name: nginx\n  newTag: "1.27.3"\n',
      'overlays/production/web-patch.yaml': wrongTypePatch,
    },
  },
  {
    title: 'Generators with hash',
    target: 'app',
    files: {
      'app/kustomization.yaml':
        'resources:\n- deployment.yaml\nconfigMapGenerator:\n- name: web-config\n  literals:\n  - LOG_LEVEL=info\n  - FEATURES=a,b\n  files:\n  - nginx.conf\nsecretGenerator:\n- name: web-credentials\n  literals:\n  - password=s3cr3t\n',
      'app/nginx.conf': 'server {\n  listen 80;\n}\n',
      'app/deployment.yaml': deploymentWithEnvFrom('        - configMapRef:\n            name: web-config\n        - secretRef:\n            name: web-credentials\n'),
    },
  },
  {
    title: 'Patches',
    target: 'app',
    files: {
      'app/kustomization.yaml':
        'resources:\n- deployment.yaml\n- service.yaml\npatches:\n- path: resources-patch.yaml\n- path: port-patch.yaml\n  target:\n    kind: Service\n    name: web\n- target:\n    kind: Deployment\n  patch: |-\n    - op: add\n      path: /metadata/annotations\n      value:\n        team: platform\n',
      'app/deployment.yaml': deployment,
      'app/service.yaml': service,
      'app/resources-patch.yaml':
        'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    spec:\n      containers:\n      - name: web\n        resources:\n          limits:\n            memory: 256Mi\n',
      'app/port-patch.yaml': '- op: replace\n  path: /spec/ports/0/port\n  value: 8080\n',
    },
  },
  {
    title: 'Replacements',
    target: 'app',
    files: {
      'app/kustomization.yaml':
        'resources:\n- deployment.yaml\n- settings.yaml\nreplacements:\n- source:\n    kind: ConfigMap\n    name: settings\n    fieldPath: data.image\n  targets:\n  - select:\n      kind: Deployment\n    fieldPaths:\n    - spec.template.spec.containers.[name=web].image\n- source:\n    kind: ConfigMap\n    name: settings\n    fieldPath: data.replicas\n  targets:\n  - select:\n      kind: Deployment\n    fieldPaths:\n    - spec.replicas\n',
      'app/settings.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  annotations:\n    config.kubernetes.io/local-config: "true"\ndata:\n  image: nginx:1.27.3-alpine\n  replicas: "2"\n',
      'app/deployment.yaml': deployment,
    },
  },
  {
    title: 'A Composition (transformers in sequence)',
    target: 'app',
    files: {
      'app/composition.yaml': composition,
      'app/deployment.yaml': deploymentWithEnvFrom('        - configMapRef:\n            name: web-config\n'),
      'app/service.yaml': service,
    },
  },
];
