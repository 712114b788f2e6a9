// Generates one random kustomization tree from a seed: bases, optional middle overlays (a chain
// or a diamond), components and a top overlay, each kustomization with a random choice of
// fields. The result is a map of relative path -> file contents plus the directory to build.
//
// The generator keeps a rough model of what each kustomization outputs (its "view": kind, name,
// namespace, labels of every object, after its own prefix/suffix/namespace/labels) so that the
// next level's patches, replacements, vars, replicas and generator merges aim at objects that
// exist. The model is deliberately approximate: when it misses, kustomize may fail, and then
// kustomize-ts must fail too.
import { stringify } from 'yaml';
import { Random } from './random.mjs';
import { appObjects, widget, widgetCrd, widgetConfiguration, widgetCrdsDefinitions, widgetOpenApi, TRICKY_STRINGS, unmarkPlainJson, unmarkPlainYaml } from './resources.mjs';
import {
  CLUSTER_KINDS,
  imagesEntry,
  jsonOps,
  labelsEntry,
  patchTarget,
  replacement,
  replicasEntry,
  smpDocument,
  varEntry,
  Vocabulary,
  VAR_NAMES,
} from './fields.mjs';

const APPS = ['web', 'api', 'db', 'cache', 'worker', 'auth', 'queue', 'search'];
const NAMESPACES = ['team-a', 'prod', 'default', 'staging'];

/** Generates the tree of one case. */
export function generateTree(seed) {
  return new TreeGenerator(new Random(seed)).generate();
}

class TreeGenerator {
  constructor(rng) {
    this.rng = rng;
    this.files = new Map();
    this.freeApps = rng.shuffle(APPS);
    this.freeVars = rng.shuffle(VAR_NAMES);
    this.widgets = false;
    this.vocab = new Vocabulary(rng);
  }

  generate() {
    const rng = this.rng;
    const shape = rng.pick(['single', 'single', 'overlay', 'overlay', 'overlay', 'two-bases', 'chain', 'diamond']);
    let build;
    if (shape === 'single') {
      this.base('app', { top: true });
      build = 'app';
    } else if (shape === 'overlay') {
      const base = this.base('base');
      this.overlay('overlay', [['../base', base]], { top: true });
      build = 'overlay';
    } else if (shape === 'two-bases') {
      const a = this.base('bases/a');
      const b = this.base('bases/b');
      this.overlay('overlay', [['../bases/a', a], ['../bases/b', b]], { top: true });
      build = 'overlay';
    } else if (shape === 'chain') {
      const base = this.base('base');
      const mid = this.overlay('mid', [['../base', base]], {});
      this.overlay('overlay', [['../mid', mid]], { top: true });
      build = 'overlay';
    } else {
      // the same base twice: the two middle overlays must rename it apart (or the build fails);
      // cluster-scoped objects (a CRD, a Namespace) would come twice all the same, so mostly none
      const base = this.base('base', { clusterScoped: rng.chance(0.1) });
      const left = this.overlay('left', [['../base', base]], { prefix: 'left-' });
      const right = this.overlay('right', [['../base', base]], { prefix: rng.chance(0.9) ? 'right-' : 'left-' });
      this.overlay('overlay', [['../left', left], ['../right', right]], { top: true });
      build = 'overlay';
    }
    return { files: this.files, build, shape };
  }

  // ------------------------------------------------------------------ files

  write(path, text) {
    this.files.set(path, text);
  }

  /**
   * YAML text for value: sequences indented or not, long lines folded or not, strings mostly
   * plain but now and then all quoted (single or double: kustomize keeps a value's quoting style),
   * and the values marked `plain` written unquoted.
   */
  yaml(value, version = '1.2') {
    const rng = this.rng;
    const defaultStringType = rng.pick(['PLAIN', 'PLAIN', 'PLAIN', 'PLAIN', 'PLAIN', 'PLAIN', 'PLAIN', 'PLAIN', 'QUOTE_DOUBLE', 'QUOTE_SINGLE']);
    const text = stringify(value, { version, indentSeq: rng.chance(0.5), lineWidth: rng.chance(0.8) ? 0 : 80, aliasDuplicateObjects: false, defaultStringType, defaultKeyType: 'PLAIN' });
    return unmarkPlainYaml(text);
  }

  /** Writes objects as a resource file: YAML documents, a List, or JSON. Returns its name. */
  writeResources(dir, name, objs) {
    const rng = this.rng;
    if (objs.length === 1 && rng.chance(0.1)) {
      const file = `${name}.json`;
      this.write(`${dir}/${file}`, JSON.stringify(objs[0], null, 2) + '\n');
      return file;
    }
    const file = `${name}.yaml`;
    if (objs.length > 1 && rng.chance(0.1)) {
      this.write(`${dir}/${file}`, this.yaml({ apiVersion: 'v1', kind: 'List', items: objs }));
      return file;
    }
    const lead = rng.chance(0.1) ? '---\n' : '';
    this.write(`${dir}/${file}`, lead + objs.map((o) => this.yaml(o)).join(rng.chance(0.1) ? '---\n# next\n' : '---\n'));
    return file;
  }

  writeKustomization(dir, k, { component = false } = {}) {
    const rng = this.rng;
    const head = {};
    if (component) Object.assign(head, { apiVersion: 'kustomize.config.k8s.io/v1alpha1', kind: 'Component' });
    else if (rng.chance(0.6)) Object.assign(head, { apiVersion: 'kustomize.config.k8s.io/v1beta1', kind: 'Kustomization' });
    const keys = rng.chance(0.3) ? rng.shuffle(Object.keys(k)) : Object.keys(k);
    const body = { ...head };
    for (const key of keys) body[key] = k[key];
    const file = component ? 'kustomization.yaml' : rng.pick(['kustomization.yaml', 'kustomization.yaml', 'kustomization.yaml', 'kustomization.yml', 'Kustomization']);
    // kustomize reads a kustomization through YAML 1.1 (`on`, `yes` are booleans there, and a
    // boolean where a string belongs is an error): quoted as 1.1 wants, but now and then not
    this.write(`${dir}/${file}`, this.yaml(body, rng.chance(0.97) ? '1.1' : '1.2'));
  }

  // ------------------------------------------------------------------ the model

  entry(obj, generated = false) {
    const [group, version] = obj.apiVersion.includes('/') ? obj.apiVersion.split('/') : ['', obj.apiVersion];
    return {
      apiVersion: obj.apiVersion,
      group,
      version,
      kind: obj.kind,
      name: obj.metadata.name,
      origName: obj.metadata.name,
      namespace: obj.metadata.namespace,
      labels: { ...(obj.metadata.labels ?? {}) },
      annotations: obj.metadata.annotations !== undefined,
      hasReplicas: obj.spec?.replicas !== undefined,
      dataKeys: Object.keys(obj.data ?? {}),
      generated,
    };
  }

  /** What a kustomization's own namespace/prefix/suffix/labels do to the entries it outputs. */
  applyToView(view, k) {
    return view.map((e) => {
      const out = { ...e, labels: { ...e.labels } };
      if (k.namespace && !CLUSTER_KINDS.has(e.kind)) out.namespace = k.namespace;
      if (e.kind !== 'CustomResourceDefinition') out.name = `${k.namePrefix ?? ''}${e.name}${k.nameSuffix ?? ''}`;
      for (const l of k.labels ?? []) Object.assign(out.labels, l.pairs);
      Object.assign(out.labels, k.commonLabels ?? {});
      return out;
    });
  }

  // ------------------------------------------------------------------ kustomizations

  /** A base: an app or two, their resource files and generators, and some transformer fields. */
  base(dir, { top = false, clusterScoped = true } = {}) {
    const rng = this.rng;
    const k = {};
    const objs = [];
    const generated = [];
    for (let n = rng.int(1, 2); n > 0 && this.freeApps.length; n--) {
      const app = this.freeApps.pop();
      const refs = {};
      if (rng.chance(0.6)) refs.configMap = `${app}-config`;
      refs.configMapObject = refs.configMap && rng.chance(0.5);
      if (rng.chance(0.4)) refs.envConfigMap = `${app}-env`;
      if (rng.chance(0.4)) refs.secret = `${app}-secret`;
      refs.secretObject = refs.secret && rng.chance(0.5);
      if (rng.chance(0.3)) refs.serviceAccount = `${app}-sa`;
      if (rng.chance(0.2)) refs.pvc = `${app}-data`;
      objs.push(...appObjects(rng, app, refs));
      if (refs.configMap && !refs.configMapObject) generated.push({ kind: 'ConfigMap', name: refs.configMap });
      if (refs.envConfigMap) generated.push({ kind: 'ConfigMap', name: refs.envConfigMap });
      if (refs.secret && !refs.secretObject) generated.push({ kind: 'Secret', name: refs.secret });
      if (clusterScoped && rng.chance(0.15) && !this.widgets) {
        this.widgets = true;
        objs.push(widgetCrd(), widget(rng, `${app}-widget`, refs));
        this.widgetFields(dir, k);
      }
    }
    if (clusterScoped && rng.chance(0.1)) objs.unshift({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: rng.pick(NAMESPACES) } });
    const resources = [];
    const chunks = rng.int(1, Math.min(3, objs.length));
    for (let i = 0; i < chunks; i++) {
      const part = objs.filter((_, j) => j % chunks === i);
      if (part.length) resources.push(this.writeResources(dir, rng.pick(['app', 'resources', 'manifests', 'objs']) + i, part));
    }
    k.resources = rng.shuffle(resources);
    const view = objs.map((o) => this.entry(o));
    for (const g of generated) this.generatorEntry(dir, k, g, view);
    if (rng.chance(0.2)) this.generatorEntry(dir, k, { kind: rng.pick(['ConfigMap', 'Secret']), name: 'shared' }, view);
    this.transformerFields(dir, k, view, { top });
    this.writeKustomization(dir, k);
    return this.applyToView(view, k);
  }

  widgetFields(dir, k) {
    const rng = this.rng;
    if (rng.chance(0.6)) {
      this.write(`${dir}/widget-config.yaml`, this.yaml(widgetConfiguration(rng)));
      k.configurations = ['widget-config.yaml'];
    }
    if (rng.chance(0.3)) {
      this.write(`${dir}/widget-crds.json`, JSON.stringify(widgetCrdsDefinitions(), null, 2));
      k.crds = ['widget-crds.json'];
    }
    if (rng.chance(0.2)) {
      this.write(`${dir}/widget-schema.json`, JSON.stringify(widgetOpenApi(), null, 2));
      k.openapi = { path: 'widget-schema.json' };
    }
  }

  /** An overlay over `children` ([relative path, view] pairs): resources, components, fields. */
  overlay(dir, children, { top = false, prefix } = {}) {
    const rng = this.rng;
    const k = {};
    let view = children.flatMap(([, v]) => v);
    const entries = children.map(([path]) => path);
    if (rng.chance(0.25) && this.freeApps.length) {
      const app = this.freeApps.pop();
      const objs = appObjects(rng, app, {});
      entries.push(this.writeResources(dir, 'extra', objs));
      view = view.concat(objs.map((o) => this.entry(o)));
    }
    if (rng.chance(0.08)) k.bases = entries;
    else k.resources = rng.chance(0.2) ? rng.shuffle(entries) : entries;
    this.overlayGenerators(dir, k, view);
    if (rng.chance(top ? 0.4 : 0.2)) {
      const names = [];
      for (let n = rng.int(1, 2); n > 0; n--) {
        const name = `${dir.replace(/\//g, '-')}-c${n}`;
        view = this.component(`components/${name}`, view);
        names.push(`../components/${name}`);
      }
      k.components = names;
    }
    if (prefix) k.namePrefix = prefix;
    this.transformerFields(dir, k, view, { top, keepPrefix: prefix !== undefined });
    this.writeKustomization(dir, k);
    return this.applyToView(view, k);
  }

  /** A Component: maybe a resource of its own, a generator merge, patches, labels. */
  component(dir, parentView) {
    const rng = this.rng;
    const k = {};
    let view = parentView;
    if (rng.chance(0.4)) {
      const obj = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `${dir.split('/').pop()}-settings` }, data: { from: 'component', value: rng.pick(TRICKY_STRINGS) } };
      k.resources = [this.writeResources(dir, 'settings', [obj])];
      view = view.concat([this.entry(obj)]);
    }
    this.overlayGenerators(dir, k, view);
    this.transformerFields(dir, k, view, { component: true });
    this.writeKustomization(dir, k, { component: true });
    return this.applyToView(view, k);
  }

  // ------------------------------------------------------------------ generators

  /** A configMapGenerator/secretGenerator entry creating `g` (kind, name); adds it to the view. */
  generatorEntry(dir, k, g, view, behavior) {
    const rng = this.rng;
    const field = g.kind === 'ConfigMap' ? 'configMapGenerator' : 'secretGenerator';
    const entry = { name: g.name };
    if (g.namespace) entry.namespace = g.namespace;
    if (behavior) entry.behavior = behavior;
    const keys = [];
    const literals = [];
    // a key given twice is an error (kustomize's `illegally repeats the key`): rarely
    const unique = rng.chance(0.97);
    for (let n = rng.int(behavior ? 0 : 1, 3); n > 0; n--) {
      const key = rng.pick(['setting', 'token', 'level', 'LOG_LEVEL', 'url', 'app.mode', 'x_y'].filter((k) => !unique || !keys.includes(k)));
      keys.push(key);
      const value = rng.pick(['1', 'true', 'debug', '"quoted value"', "'single'", '', 'a=b', 'with space', 'https://x.example.com/a?b=c', '0123', 'yes']);
      literals.push(`${key}=${value}`);
    }
    if (literals.length) entry.literals = literals;
    if (rng.chance(0.35)) {
      const name = rng.pick(['app.properties', 'config.json', 'nginx.conf', 'blob.bin']);
      this.write(`${dir}/files/${name}`, fileContents(rng, name));
      entry.files = [rng.chance(0.3) ? `renamed-${keys.length}=files/${name}` : `files/${name}`];
      keys.push(name);
    }
    if (rng.chance(0.25)) {
      this.write(`${dir}/${g.name}.env`, envContents(rng, unique ? keys : []));
      entry.envs = [`${g.name}.env`];
    }
    if (!entry.literals && !entry.files && !entry.envs && !behavior) entry.literals = ['setting=default'];
    if (g.kind === 'Secret' && !behavior && rng.chance(0.2)) entry.type = rng.pick(['Opaque', 'kubernetes.io/basic-auth']);
    if (rng.chance(0.2)) {
      const options = {};
      if (rng.chance(0.5)) options.labels = this.vocab.labelMap(rng);
      if (rng.chance(0.4)) options.annotations = this.vocab.annotationMap(rng);
      if (rng.chance(0.4)) options.disableNameSuffixHash = rng.chance(0.6);
      if (rng.chance(0.2)) options.immutable = true;
      entry.options = options;
    }
    (k[field] ??= []).push(entry);
    if (!behavior) view.push({ ...this.entry({ apiVersion: 'v1', kind: g.kind, metadata: { name: g.name, namespace: g.namespace } }, true), dataKeys: keys });
  }

  /** An overlay's or component's generators: new ones, and merges or replacements of inherited ones. */
  overlayGenerators(dir, k, view) {
    const rng = this.rng;
    const inherited = view.filter((e) => e.generated);
    if (inherited.length && rng.chance(0.35)) {
      const e = rng.pick(inherited);
      const name = rng.chance(0.85) ? e.origName : e.name;
      const namespace = e.namespace && rng.chance(0.7) ? e.namespace : undefined;
      this.generatorEntry(dir, k, { kind: e.kind, name, namespace }, view, rng.chance(0.75) ? 'merge' : 'replace');
    }
    if (rng.chance(0.2)) this.generatorEntry(dir, k, { kind: rng.pick(['ConfigMap', 'Secret']), name: `${dir.split('/').pop()}-extra` }, view);
    if (rng.chance(0.05) && !inherited.length) this.generatorEntry(dir, k, { kind: 'ConfigMap', name: 'never-created' }, view, 'merge');
  }

  // ------------------------------------------------------------------ transformer fields

  transformerFields(dir, k, view, { top = false, component = false, keepPrefix = false } = {}) {
    const rng = this.rng;
    if (!view.length) return;
    const pick = () => rng.pick(view);
    if (!keepPrefix && rng.chance(0.3)) k.namePrefix = rng.pick(['dev-', 'p-', 'x.', 'team-a-']);
    if (rng.chance(0.25)) k.nameSuffix = rng.pick(['-v2', '-prod', '-1']);
    if (rng.chance(0.3)) k.namespace = rng.pick(NAMESPACES);
    if (rng.chance(0.2)) k.commonLabels = this.vocab.labelMap(rng);
    const templates = !view.some((e) => e.kind === 'StatefulSet');
    if (rng.chance(0.35)) k.labels = Array.from({ length: rng.int(1, 2) }, () => labelsEntry(rng, this.vocab, { templates }));
    if (rng.chance(0.3)) k.commonAnnotations = this.vocab.annotationMap(rng);
    if (rng.chance(0.3)) k[rng.chance(0.05) ? 'imageTags' : 'images'] = Array.from({ length: rng.int(1, 3) }, () => imagesEntry(rng));
    // a Widget is scalable only through a `configurations:` entry, which the model does not follow
    const scalable = view.filter((e) => ['Deployment', 'StatefulSet'].includes(e.kind) || (e.kind === 'Widget' && rng.chance(0.1)));
    if (scalable.length && rng.chance(0.25)) k.replicas = Array.from({ length: rng.int(1, 2) }, () => replicasEntry(rng, scalable));
    if (rng.chance(0.5)) k.patches = Array.from({ length: rng.int(1, 3) }, (_, i) => this.patchEntry(dir, pick(), i));
    if (rng.chance(0.2)) k.patchesStrategicMerge = Array.from({ length: rng.int(1, 2) }, (_, i) => this.smpFileOrInline(dir, pick(), i));
    if (rng.chance(0.15)) k.patchesJson6902 = Array.from({ length: rng.int(1, 2) }, (_, i) => this.json6902Entry(dir, pick(), i));
    if (rng.chance(0.25)) this.replacementsField(dir, k, view);
    if (rng.chance(0.15) && this.freeVars.length) {
      k.vars = [];
      for (let n = rng.int(1, 2); n > 0 && this.freeVars.length; n--) k.vars.push(varEntry(rng, view, this.freeVars.pop()));
    }
    if (rng.chance(0.15)) {
      k.generatorOptions = {};
      if (rng.chance(0.5)) k.generatorOptions.labels = this.vocab.labelMap(rng);
      if (rng.chance(0.3)) k.generatorOptions.annotations = this.vocab.annotationMap(rng);
      if (rng.chance(0.5)) k.generatorOptions.disableNameSuffixHash = rng.chance(0.7);
      if (rng.chance(0.15)) k.generatorOptions.immutable = true;
    }
    if (rng.chance(0.08)) this.builtinPlugins(dir, k);
    if ((top && rng.chance(0.25)) || rng.chance(0.03)) k.sortOptions = sortOptions(rng);
    if ((top || component) && rng.chance(0.12)) k.buildMetadata = rng.some(['originAnnotations', 'transformerAnnotations', 'managedByLabel'], 1, 2);
  }

  /** A `patches:` entry: a strategic merge or JSON 6902 patch, inline or in a file, with or without a target. */
  patchEntry(dir, e, i) {
    const rng = this.rng;
    const entry = {};
    const json = rng.chance(0.35);
    const withTarget = json || rng.chance(0.5);
    if (withTarget) entry.target = patchTarget(rng, e);
    let text;
    if (json) {
      const ops = jsonOps(rng, this.vocab, e);
      text = rng.chance(0.3) ? unmarkPlainJson(JSON.stringify(ops)) : this.yaml(ops);
    } else {
      const doc = withTarget ? smpDocument(rng, this.vocab, e, { named: rng.chance(0.5) }) : smpDocument(rng, this.vocab, e);
      text = this.yaml(doc);
    }
    if (rng.chance(0.5)) entry.patch = text;
    else {
      const file = `patches/patch-${i}.${json && text.startsWith('[') ? 'json' : 'yaml'}`;
      this.write(`${dir}/${file}`, text);
      entry.path = file;
    }
    if (!json && withTarget && rng.chance(0.05)) entry.options = { allowNameChange: true };
    return entry;
  }

  smpFileOrInline(dir, e, i) {
    const text = this.yaml(smpDocument(this.rng, this.vocab, e));
    if (this.rng.chance(0.4)) return text;
    const file = `smp-${i}.yaml`;
    this.write(`${dir}/${file}`, text);
    return file;
  }

  json6902Entry(dir, e, i) {
    const rng = this.rng;
    const target = { version: e.version, kind: e.kind, name: rng.chance(0.8) ? e.name : e.origName };
    if (e.group) target.group = e.group;
    if (e.namespace && rng.chance(0.5)) target.namespace = e.namespace;
    const ops = jsonOps(rng, this.vocab, e);
    if (rng.chance(0.4)) return { target, patch: this.yaml(ops) };
    const file = `json6902-${i}.yaml`;
    this.write(`${dir}/${file}`, this.yaml(ops));
    return { target, path: file };
  }

  replacementsField(dir, k, view) {
    const rng = this.rng;
    const list = Array.from({ length: rng.int(1, 2) }, () => replacement(rng, view));
    if (rng.chance(0.7)) {
      k.replacements = list;
      return;
    }
    this.write(`${dir}/replacements.yaml`, this.yaml(list));
    k.replacements = [{ path: 'replacements.yaml' }];
  }

  /** `transformers:`/`generators:` with builtin plugin configs (apiVersion: builtin), as files or inline. */
  builtinPlugins(dir, k) {
    const rng = this.rng;
    const transformer = rng.pick([
      { apiVersion: 'builtin', kind: 'PrefixSuffixTransformer', metadata: { name: 'affix' }, prefix: 'bt-', fieldSpecs: [{ path: 'metadata/name' }] },
      { apiVersion: 'builtin', kind: 'LabelTransformer', metadata: { name: 'labels' }, labels: this.vocab.labelMap(rng), fieldSpecs: [{ path: 'metadata/labels', create: true }] },
      { apiVersion: 'builtin', kind: 'AnnotationsTransformer', metadata: { name: 'notes' }, annotations: this.vocab.annotationMap(rng), fieldSpecs: [{ path: 'metadata/annotations', create: true }] },
      { apiVersion: 'builtin', kind: 'NamespaceTransformer', metadata: { name: 'ns', namespace: 'plugged' }, fieldSpecs: [{ path: 'metadata/namespace', create: true }] },
      { apiVersion: 'builtin', kind: 'ImageTagTransformer', metadata: { name: 'img' }, imageTag: { name: 'nginx', newTag: 'plugged' } },
    ]);
    if (rng.chance(0.5)) k.transformers = [this.yaml(transformer)];
    else {
      this.write(`${dir}/transformer.yaml`, this.yaml(transformer));
      k.transformers = ['transformer.yaml'];
    }
    if (rng.chance(0.4)) {
      const generator = { apiVersion: 'builtin', kind: 'ConfigMapGenerator', metadata: { name: 'plugged' }, literals: ['from=plugin'] };
      this.write(`${dir}/generator.yaml`, this.yaml(generator));
      k.generators = ['generator.yaml'];
    }
  }
}

function sortOptions(rng) {
  if (rng.chance(0.5)) return { order: 'fifo' };
  const o = { order: 'legacy' };
  if (rng.chance(0.6)) {
    o.legacySortOptions = {
      orderFirst: rng.some(['Service', 'ConfigMap', 'Deployment', 'Namespace', 'Secret'], 1, 3),
      orderLast: rng.some(['StatefulSet', 'Ingress', 'Job'], 0, 2),
    };
  }
  return o;
}

function fileContents(rng, name) {
  if (name.endsWith('.bin')) return Buffer.from([0x00, 0xff, 0xfe, 0x41, 0x0a, 0x80, rng.int(0, 255)]);
  if (name.endsWith('.json')) return JSON.stringify({ enabled: rng.chance(0.5), level: rng.int(1, 5), name: rng.pick(TRICKY_STRINGS) }, null, 2) + '\n';
  if (name.endsWith('.conf')) return `server {\n\tlisten ${rng.pick([80, 8080])};\n  location / { return 200; }\n}\n`;
  return `mode=${rng.pick(['a', 'b'])}\n# a comment\nlong.line=${'x'.repeat(rng.int(10, 120))}\n${rng.chance(0.3) ? 'trailing-space=1 \n' : ''}`;
}

function envContents(rng, taken) {
  const lines = [`LEVEL=${rng.pick(['debug', 'info', '3'])}`, '# a comment', '', `QUOTED="${rng.pick(['a b', 'x'])}"`, `EMPTY=`, `EQUALS=a=b`, `token=${rng.word()}`].filter(
    (l) => !taken.includes(l.split('=')[0]),
  );
  return rng.some(lines, 1, lines.length).join('\n') + (rng.chance(0.7) ? '\n' : '');
}
