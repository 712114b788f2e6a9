// The transformer fields of a generated kustomization: each function takes the resources the
// kustomization can see (its "view", see tree.mjs) and returns a field's value, aimed at those
// resources most of the time so that the build does something, and now and then at nothing.
import { IMAGES, TAGS, DIGEST, TRICKY_STRINGS, VAR_NAMES, PLAIN_SCALARS, plain } from './resources.mjs';

export const CLUSTER_KINDS = new Set(['Namespace', 'ClusterRole', 'ClusterRoleBinding', 'CustomResourceDefinition', 'PersistentVolume', 'StorageClass']);
const WORKLOADS = new Set(['Deployment', 'StatefulSet', 'DaemonSet']);

/** Where a kind keeps its pod template, as a JSON pointer (undefined: it has none). */
function templatePointer(kind) {
  if (WORKLOADS.has(kind) || kind === 'Job') return '/spec/template';
  if (kind === 'CronJob') return '/spec/jobTemplate/spec/template';
  return undefined;
}

const pointerToDotted = (p) => p.slice(1).split('/').join('.');

function nestAt(pointer, value) {
  return pointer
    .slice(1)
    .split('/')
    .reduceRight((v, key) => ({ [key]: v }), value);
}

const LABEL_KEYS = ['team', 'env', 'app.kubernetes.io/part-of', 'example.com/tier', 'release'];
const LABEL_VALUES = ['blue', 'green', 'v1', 'prod', 'a-b', '1', 'true'];
const ANNOTATION_KEYS = ['note', 'example.com/owner', 'description', 'checksum/config'];
/**
 * kustomize trims a patch's text (strings.TrimSpace), so a block scalar that ends a patch loses
 * its last line break: an annotation value ending in one would not stay the one value of its key.
 */
const ANNOTATION_VALUES = TRICKY_STRINGS.filter((s) => !s.endsWith('\n'));

/**
 * The label and annotation values of one tree: each key has one value throughout, whichever
 * transformer or patch sets it. (kustomize shares one YAML node between the places a label or
 * annotation transformer creates a key in a resource, and a later write to one of them changes
 * them all; kustomize-ts does not: see divergences.mjs. One value a key keeps that invisible.)
 */
export class Vocabulary {
  constructor(rng) {
    this.labels = Object.fromEntries(LABEL_KEYS.map((k) => [k, rng.pick(LABEL_VALUES)]));
    this.annotations = Object.fromEntries(ANNOTATION_KEYS.map((k) => [k, rng.pick(ANNOTATION_VALUES)]));
  }

  labelMap(rng, lo = 1, hi = 2) {
    const m = {};
    for (let i = rng.int(lo, hi); i > 0; i--) {
      const k = rng.pick(LABEL_KEYS);
      m[k] = this.labels[k];
    }
    return m;
  }

  annotationMap(rng) {
    const m = {};
    for (let i = rng.int(1, 2); i > 0; i--) {
      const k = rng.pick(ANNOTATION_KEYS);
      m[k] = this.annotations[k];
    }
    return m;
  }
}

/** A name a patch or selector may use for an entry: its current name mostly, its first name sometimes. */
const someName = (rng, e) => (rng.chance(0.75) ? e.name : e.origName);

/** A patch target aimed at entry e (or at a group of entries). */
export function patchTarget(rng, e) {
  const t = {};
  const r = rng.next();
  if (r < 0.45) Object.assign(t, { kind: e.kind, name: someName(rng, e) });
  else if (r < 0.55) Object.assign(t, { name: `${e.name.slice(0, Math.max(1, e.name.length - 2))}.*` });
  else if (r < 0.65 && e.labels.app) Object.assign(t, { labelSelector: rng.pick([`app=${e.labels.app}`, `app in (${e.labels.app},other)`, `app,app!=zzz`]) });
  else if (r < 0.7) Object.assign(t, { kind: e.kind, annotationSelector: rng.pick(['note', '!nothing', 'example.com/owner']) });
  else if (r < 0.8) Object.assign(t, { group: e.group, version: e.version, kind: e.kind });
  else if (r < 0.85) Object.assign(t, { kind: `${e.kind}|Service` });
  else Object.assign(t, { kind: e.kind });
  if (e.namespace && rng.chance(0.3)) t.namespace = e.namespace;
  if (rng.chance(0.05)) t.name = 'no-such-object';
  return t;
}

/** A string value a patch writes: a tricky string, or now and then a text written plain that YAML reads as another type. */
const patchValue = (rng) => (rng.chance(0.3) ? plain(rng.pick(PLAIN_SCALARS)) : rng.pick(TRICKY_STRINGS));

/** The body of a strategic merge patch for entry e (without apiVersion/kind/metadata.name). */
export function smpBody(rng, vocab, e) {
  const body = {};
  const tpl = templatePointer(e.kind);
  const r = rng.next();
  if (tpl && r < 0.6) {
    const podSpec = {};
    const choice = rng.int(0, 5);
    if (choice === 0) podSpec.containers = [{ name: 'main', image: `${rng.pick(IMAGES)}:${rng.pick(TAGS)}` }];
    else if (choice === 1) podSpec.containers = [{ name: 'main', env: [{ name: 'EXTRA', value: patchValue(rng) }, { name: 'MODE', value: 'patched' }] }];
    else if (choice === 2) podSpec.containers = [{ name: 'extra', image: 'busybox', args: ['sleep', '3600'] }];
    else if (choice === 3) podSpec.containers = [{ name: rng.pick(['sidecar', 'main']), $patch: 'delete' }];
    else if (choice === 4) podSpec.volumes = [{ name: 'scratch', emptyDir: {} }];
    else podSpec.nodeSelector = { 'kubernetes.io/os': 'linux' };
    const template = { spec: podSpec };
    if (rng.chance(0.3)) template.metadata = { annotations: vocab.annotationMap(rng) };
    Object.assign(body, nestAt(tpl, template));
    if (WORKLOADS.has(e.kind) && e.kind !== 'DaemonSet' && rng.chance(0.3)) body.spec.replicas = rng.int(0, 9);
  } else if (e.kind === 'Service' && r < 0.6) {
    body.spec = rng.chance(0.5) ? { type: 'NodePort' } : { ports: [{ name: 'metrics', port: 9100, targetPort: 9100 }] };
  } else if (e.kind === 'ConfigMap' && r < 0.7) {
    // `setting` is where replacements read and write (see divergences.mjs on tags): plain texts go to other keys
    body.data = { setting: rng.pick(TRICKY_STRINGS), ...(rng.chance(0.3) ? { level: null } : {}), added: 'x' };
    if (rng.chance(0.5)) body.data[rng.pick(['mode', 'flag', 'text'])] = patchValue(rng);
  } else if (e.kind === 'Secret' && r < 0.6) {
    body.stringData = { extra: patchValue(rng) };
  } else if (e.kind === 'Widget' && r < 0.7) {
    body.spec = rng.chance(0.5) ? { parts: [{ name: 'a', weight: rng.int(10, 20) }] } : { size: rng.int(5, 9) };
  }
  const m = {};
  if (rng.chance(0.4)) m.labels = vocab.labelMap(rng);
  if (rng.chance(0.3)) m.annotations = rng.chance(0.2) ? { 'note.example.com/owner': null } : vocab.annotationMap(rng);
  if (Object.keys(m).length || Object.keys(body).length === 0) body.metadata = m;
  return body;
}

/** A strategic merge patch document for e, naming it as kustomize would find it. */
export function smpDocument(rng, vocab, e, { named = true } = {}) {
  const doc = { apiVersion: e.apiVersion, kind: e.kind, metadata: { name: named ? someName(rng, e) : rng.pick(['ignored', e.name]) } };
  if (e.namespace && rng.chance(0.5)) doc.metadata.namespace = e.namespace;
  if (rng.chance(0.03)) return { ...doc, $patch: 'delete' };
  const body = smpBody(rng, vocab, e);
  if (body.metadata) Object.assign(doc.metadata, body.metadata);
  delete body.metadata;
  return { ...doc, ...body };
}

/** JSON 6902 operations for e; now and then one fails (a path that is not there), which both tools must reject. */
export function jsonOps(rng, vocab, e) {
  const ops = [];
  const tpl = templatePointer(e.kind);
  const hasLabels = Object.keys(e.labels).length > 0;
  for (let n = rng.int(1, 3); n > 0; n--) {
    const r = rng.int(0, 9);
    if (r === 0) ops.push({ op: 'add', path: '/metadata/annotations', value: { patched: 'yes', 'example.com/v': patchValue(rng) } });
    else if (r === 1 && e.hasReplicas) ops.push({ op: 'replace', path: '/spec/replicas', value: rng.int(0, 7) });
    else if (r === 2 && tpl) ops.push({ op: 'replace', path: `${tpl}/spec/containers/0/image`, value: `${rng.pick(IMAGES)}:${rng.pick(TAGS)}` });
    else if (r === 3 && tpl) ops.push({ op: 'add', path: `${tpl}/spec/containers/0/env/-`, value: { name: 'ADDED', value: patchValue(rng) } });
    else if (r === 4 && e.labels.app && rng.chance(0.3)) ops.push({ op: 'remove', path: '/metadata/labels/app' });
    else if (r === 5) ops.push({ op: 'test', path: '/kind', value: e.kind });
    else if (r === 6 && e.kind === 'ConfigMap') ops.push({ op: 'add', path: '/data/added', value: patchValue(rng) });
    else if (r === 7 || !hasLabels) ops.push({ op: 'add', path: '/metadata/labels', value: vocab.labelMap(rng) });
    else if (r === 8 && tpl && rng.chance(0.5)) ops.push({ op: 'copy', from: '/metadata/name', path: `${tpl}/spec/hostname` });
    else if (r === 9 && rng.chance(0.1)) ops.push({ op: 'replace', path: '/spec/doesNotExist', value: 1 });
    else ops.push({ op: 'add', path: '/metadata/labels/json-patched', value: 'true' });
  }
  return ops;
}

/**
 * A `labels:` entry. `templates: false` keeps `includeTemplates` off: kustomize v5.5 also labels
 * a StatefulSet's volumeClaimTemplates with it, kustomize-ts (as kustomize's main branch) only
 * with `includeVolumeClaimTemplates`, which v5.5 rejects (see divergences.mjs).
 */
export function labelsEntry(rng, vocab, { templates = true } = {}) {
  const entry = { pairs: vocab.labelMap(rng) };
  if (rng.chance(0.5)) entry.includeSelectors = rng.chance(0.6);
  if (rng.chance(0.4)) entry.includeTemplates = templates && rng.chance(0.7);
  if (rng.chance(0.2)) {
    entry.fields = [{ kind: rng.pick(['Deployment', 'Widget', 'Service']), path: rng.pick(['spec/template/metadata/labels', 'spec/selector', 'spec/podLabels']), create: rng.chance(0.5) }];
  }
  return entry;
}

/** An `images:` entry for one of the images in use (or, rarely, one that is not). */
export function imagesEntry(rng) {
  const entry = { name: rng.chance(0.95) ? rng.pick(IMAGES) : 'unused/image' };
  const r = rng.next();
  if (r < 0.3) entry.newTag = rng.pick(['v9', '2.0', '1.0', '0123', 'latest']);
  else if (r < 0.5) entry.newName = rng.pick(['mirror.local/cache', 'quay.io/other/img']);
  else if (r < 0.65) entry.digest = DIGEST.replace('a1', 'ff');
  else if (r < 0.85) Object.assign(entry, { newName: 'mirror.local/cache', newTag: rng.pick(['v9', 'edge']) });
  else Object.assign(entry, { newName: 'mirror.local/cache', digest: DIGEST });
  return entry;
}

/** A `replicas:` entry for one of the scalable entries. */
export function replicasEntry(rng, scalable) {
  const e = rng.pick(scalable);
  return { name: e && rng.chance(0.97) ? someName(rng, e) : 'nothing', count: rng.int(0, 12) };
}

/** Where a replacement can read a scalar from, in entry e (fieldPath in kustomize's syntax). */
function sourcePaths(e) {
  const paths = ['metadata.name'];
  if (e.labels.app) paths.push('metadata.labels.app');
  if (e.kind === 'Service') paths.push('spec.ports.0.port');
  const key = e.dataKeys.find((k) => !k.includes('.'));
  if (e.kind === 'ConfigMap' && key) paths.push(`data.${key}`);
  const tpl = templatePointer(e.kind);
  if (tpl) paths.push(`${pointerToDotted(tpl)}.spec.containers.[name=main].image`);
  if (e.hasReplicas) paths.push('spec.replicas');
  return paths;
}

/**
 * Fields a replacement may write; `created` adds fields it may have to create (annotations) and
 * images, which the images transformer may have rewritten untagged (see divergences.mjs): only
 * a value that reads as a string goes there.
 */
function targetPaths(rng, e, created) {
  const tpl = templatePointer(e.kind);
  const paths = created ? ['metadata.annotations.replaced'] : [];
  if (tpl) {
    const t = pointerToDotted(tpl);
    paths.push(`${t}.spec.containers.[name=main].env.[name=MODE].value`);
    if (created) paths.push(`${t}.spec.containers.*.image`, `${t}.metadata.annotations.from`);
  }
  if (e.kind === 'Service') paths.push('spec.selector.app');
  if (e.kind === 'ConfigMap' && (created || e.dataKeys.includes('setting'))) paths.push('data.setting');
  if (e.kind === 'Widget') paths.push(...(created ? ['spec.image'] : []), 'spec.parts.[name=b].note');
  return paths.length ? rng.some(paths, 1, 2) : ['metadata.annotations.replaced'];
}

/** Whether a kind has fields a replacement can write without creating them. */
const hasExistingTargets = (e) => templatePointer(e.kind) !== undefined || ['Service', 'Widget'].includes(e.kind) || (e.kind === 'ConfigMap' && e.dataKeys.includes('setting'));

/**
 * A `replacements:` entry reading from one entry and writing into others. A value that may not
 * read back as a string (a port, a count, a ConfigMap's data) is written only into fields that
 * exist: into a field the replacement creates it would be an untagged scalar, which kustomize
 * turns into a string or a number at later steps that kustomize-ts does not follow (see
 * divergences.mjs).
 */
export function replacement(rng, view) {
  const source = rng.pick(view);
  const fieldPath = rng.pick(sourcePaths(source));
  const typed = !/^metadata\.(name|labels\.app)$|\.image$/.test(fieldPath);
  const src = { kind: source.kind, name: source.name };
  if (rng.chance(0.2)) src.version = source.version;
  if (source.namespace && rng.chance(0.3)) src.namespace = source.namespace;
  if (fieldPath !== 'metadata.name' || rng.chance(0.5)) src.fieldPath = fieldPath;
  if (fieldPath.endsWith('.image') && rng.chance(0.5)) src.options = { delimiter: ':', index: 0 };
  const targets = [];
  const targetable = typed ? view.filter(hasExistingTargets) : view;
  for (let n = rng.int(1, 2); n > 0; n--) {
    const t = rng.pick(targetable.length ? targetable : view);
    const select = typed || rng.chance(0.6) ? { kind: t.kind, name: t.name } : rng.chance(0.5) ? { kind: t.kind } : { labelSelector: `app=${t.labels.app ?? 'none'}` };
    const target = { select, fieldPaths: targetPaths(rng, t, !typed) };
    if (rng.chance(0.15)) target.reject = [{ name: source.name }];
    // most target fields may be missing (an env var, an annotation): without create, that fails
    const create = !typed && rng.chance(0.9);
    if (create || rng.chance(0.5)) target.options = { create };
    if (!typed && rng.chance(0.1)) target.options = { ...target.options, delimiter: '-', index: rng.int(0, 1) };
    targets.push(target);
  }
  return { source: src, targets };
}

/** A `vars:` entry (and its name, which must be unique in a build). */
export function varEntry(rng, view, name) {
  const e = rng.pick(view);
  const fieldPaths = ['metadata.name'];
  if (e.kind === 'Service') fieldPaths.push('spec.ports[0].port');
  if (templatePointer(e.kind) && e.kind !== 'CronJob') fieldPaths.push('spec.template.spec.containers[0].image');
  if (e.namespace) fieldPaths.push('metadata.namespace');
  const v = { name, objref: { kind: e.kind, name: e.origName, apiVersion: e.apiVersion } };
  const fieldPath = rng.pick(fieldPaths);
  if (fieldPath !== 'metadata.name' || rng.chance(0.5)) v.fieldref = { fieldPath };
  return v;
}

export { VAR_NAMES };
