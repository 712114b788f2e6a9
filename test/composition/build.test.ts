/**
 * Building Compositions: the directory-kind decision, steps run in sequence, builtins with
 * default field specs, generators with name hashes and references, ResourceAccumulator,
 * inline Kustomizations, function gating, and Compositions used from a Kustomization. Exec
 * functions are real executables; every tree is built in memory and on disk where it can be
 * (functions need the disk).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { MemoryFileSystem } from '../../src/fs/memory.js';
import { build, type BuildOptions } from '../../src/build/build.js';
import { dumpChart } from '../helm/charts.js';
import { helm as helmPath, skipHelm } from '../helm/helm-env.js';
import { startServer } from '../load/git-http-server.js';
import { rejectsWith } from './expect-error.js';
import { exec, writeTree, type TreeFile } from '../plugins/plugin-tree.js';
import { buildImage } from '../plugins/container-image.js';
import { requireTool } from '../require-tool.js';

const podman = requireTool('podman');

type Files = Record<string, TreeFile>;

/** Builds `dir` of `files` in memory and on disk; both must give the same YAML, which is returned. */
async function buildBoth(files: Files, dir: string, options: BuildOptions = {}): Promise<string> {
  const text = Object.fromEntries(Object.entries(files).map(([p, f]) => [p, typeof f === 'string' ? f : f.text]));
  const memory = await build(`/${dir}`, { ...options, fs: MemoryFileSystem.from(text) });
  const disk = await build(join(writeTree(files), dir), options);
  assert.equal(disk.yaml, memory.yaml, 'the same on disk as in memory');
  return memory.yaml;
}

async function buildOnDisk(files: Files, dir: string, options: BuildOptions = {}): Promise<string> {
  return (await build(join(writeTree(files), dir), options)).yaml;
}

const CM = (name: string, extra = '') => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n${extra}`;
const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: nginx
        envFrom:
        - configMapRef: {name: settings}
`;
/** A ResourceAccumulator step of the given paths. */
const accumulating = (paths: string) => `- apiVersion: builtin\n  kind: ResourceAccumulator\n  paths: [${paths}]\n`;
const ALPHA_EXEC = { enablePlugins: true, enableExec: true };
// generated names below (generated-bdg947hgcc, settings-6gc9d749f7) are what kubectl kustomize v5.5.0 names the same ConfigMaps
/** An exec function that records the names of the items it receives in `seen.txt` (a line per run) and returns them unchanged. */
const RECORDER = exec(`#!/bin/sh
input=$(cat)
printf '%s\\n' "$input" | awk '/^items:/ { on = 1 } on && /^    name: / { printf "%s ", $2 } END { print "" }' >> seen.txt
printf '%s\\n' "$input"
`);
const recorder = (name: string) => `- apiVersion: example.com/v1
  kind: Recorder
  metadata: {name: ${name}}
  provider: {exec: {path: ./recorder.sh}}
`;

describe('the directory decides the kind', () => {
  test('a directory holding a Composition builds it; one holding both a Composition and a Kustomization is an error naming both', async () => {
    const files = {
      'c/composition.yaml': 'transformers:\n- apiVersion: builtin\n  kind: ResourceAccumulator\n  paths: [cm.yaml]\n',
      'c/cm.yaml': CM('a'),
      'both/composition.yml': '',
      'both/kustomization.yaml': 'resources: []\n',
    };
    assert.equal(await buildBoth(files, 'c'), CM('a'));
    const fs = MemoryFileSystem.from(files);
    await rejectsWith(build('/both', { fs }), 'KUSTOMIZATION_INVALID', "directory '/both' holds both a Kustomization (kustomization.yaml) and a Composition (composition.yml)");
    await rejectsWith(build('/both', {}), 'FILE_NOT_FOUND');
  });

  test('a step that cannot be configured names the file it is in (the message stays kustomize\'s)', async () => {
    const fs = MemoryFileSystem.from({
      'c/composition.yaml': 'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Composition\ntransformers:\n- apiVersion: builtin\n  kind: PrefixTransformr\n  metadata:\n    name: p\n  prefix: x-\n',
      'k/kustomization.yaml': 'transformers:\n- t.yaml\n',
      'k/t.yaml': 'apiVersion: builtin\nkind: PrefixTransformr\nmetadata:\n  name: p\n',
    });
    const inComposition = await rejectsWith(build('/c', { fs }), 'PLUGIN_NOT_FOUND', 'unable to load builtin PrefixTransformr.builtin.[noGrp]');
    assert.equal(inComposition.file, 'composition.yaml');
    const inKustomization = await rejectsWith(build('/k', { fs }), 'PLUGIN_NOT_FOUND');
    assert.equal(inKustomization.message, 'unable to load builtin PrefixTransformr.builtin.[noGrp]');
    assert.equal(inKustomization.file, 't.yaml');
  });

  test('an empty Composition builds to nothing', async () => {
    assert.equal(await buildBoth({ 'c/Composition': 'kind: Composition\n' }, 'c'), '');
  });
});

describe('steps in sequence', () => {
  test("each step's output is the next one's input: generators append, transformers see everything so far", async () => {
    const files: Files = {
      'c/composition.yaml': `transformers:
${recorder('first')}- apiVersion: builtin
  kind: ResourceAccumulator
  paths: [a.yaml]
${recorder('second')}- apiVersion: builtin
  kind: ConfigMapGenerator
  name: generated
  literals: [k=v]
  options: {disableNameSuffixHash: true}
${recorder('third')}`,
      'c/a.yaml': CM('a'),
      'c/recorder.sh': RECORDER,
    };
    const dir = writeTree(files);
    const { yaml } = await build(join(dir, 'c'), ALPHA_EXEC);
    assert.equal(yaml, `${CM('a')}---\napiVersion: v1\ndata:\n  k: v\nkind: ConfigMap\nmetadata:\n  name: generated\n`);
    assert.equal(readFileSync(join(dir, 'c/seen.txt'), 'utf8'), '\na \na generated \n');
  });

  test('a transformer that drops resources: its output replaces the input', async () => {
    const files: Files = {
      'c/composition.yaml': `transformers:
- apiVersion: builtin
  kind: ResourceAccumulator
  paths: [a.yaml, b.yaml]
- apiVersion: example.com/v1
  kind: DropB
  provider: {exec: {path: ./drop-b.sh}}
`,
      'c/a.yaml': CM('a'),
      'c/b.yaml': CM('b'),
      // prints the ResourceList with the item named b removed (items are 5+ lines; drop from "- apiVersion" to the next)
      'c/drop-b.sh': exec(`#!/bin/sh
awk '/^- apiVersion/ { if (item != "" && item !~ /\\n    name: b\\n/) printf "%s", item; item = ""; collecting = 1 }
/^kind: ResourceList/ { if (item !~ /\\n    name: b\\n/) printf "%s", item; collecting = 0 }
collecting { item = item $0 "\\n"; next }
{ print }'
`),
    };
    assert.equal(await buildOnDisk(files, 'c', ALPHA_EXEC), CM('a'));
  });
});

describe('builtins in a Composition', () => {
  const labels = (extra = '') => ({
    'c/composition.yaml': `transformers:
${accumulating('deployment.yaml')}- apiVersion: builtin
  kind: LabelTransformer
  labels: {team: web}
${extra}`,
    'c/deployment.yaml': DEPLOYMENT,
  });

  test('a builtin without fieldSpecs gets those of its kustomization field (LabelTransformer: commonLabels, selectors too)', async () => {
    const yaml = await buildBoth(labels(), 'c');
    const viaKustomization = await buildBoth({ 'k/kustomization.yaml': 'resources: [deployment.yaml]\ncommonLabels: {team: web}\n', 'k/deployment.yaml': DEPLOYMENT }, 'k');
    assert.equal(yaml, viaKustomization);
    assert.match(yaml, /matchLabels:\n +app: web\n +team: web/);
  });

  test('a builtin with fieldSpecs uses only those', async () => {
    const yaml = await buildBoth(labels('  fieldSpecs:\n  - path: metadata/labels\n    create: true\n'), 'c');
    assert.match(yaml, /^ {2}labels:\n {4}team: web\n {2}name: web$/m);
    assert.doesNotMatch(yaml, /matchLabels:\n +app: web\n +team: web/);
  });

  test('the other defaulted builtins act as their kustomization fields do', async () => {
    const files = {
      'c/composition.yaml': `transformers:
${accumulating('deployment.yaml')}- apiVersion: builtin
  kind: NamespaceTransformer
  namespace: prod
- apiVersion: builtin
  kind: PrefixSuffixTransformer
  prefix: p-
  suffix: -s
- apiVersion: builtin
  kind: AnnotationsTransformer
  annotations: {owner: me}
- apiVersion: builtin
  kind: ImageTagTransformer
  imageTag: {name: nginx, newTag: "1.27"}
- apiVersion: builtin
  kind: ReplicaCountTransformer
  replica: {name: p-web-s, count: 2}
`,
      'c/deployment.yaml': DEPLOYMENT,
      'k/kustomization.yaml': `resources: [deployment.yaml]
namespace: prod
namePrefix: p-
nameSuffix: -s
commonAnnotations: {owner: me}
images: [{name: nginx, newTag: "1.27"}]
replicas: [{name: web, count: 2}]
`,
      'k/deployment.yaml': DEPLOYMENT,
    };
    const yaml = await buildBoth(files, 'c');
    assert.equal(yaml, await buildBoth(files, 'k'));
    assert.match(yaml, /^ {2}replicas: 2$/m);
  });

  test('a generated ConfigMap gets its name hash, and references to it follow, when the build finishes', async () => {
    const files = {
      'c/composition.yaml': `transformers:
${accumulating('deployment.yaml')}- apiVersion: builtin
  kind: PrefixSuffixTransformer
  prefix: p-
- apiVersion: builtin
  kind: ConfigMapGenerator
  name: settings
  literals: [a=b]
`,
      'c/deployment.yaml': DEPLOYMENT,
      'k/kustomization.yaml': 'resources: [deployment.yaml]\nconfigMapGenerator:\n- name: settings\n  literals: [a=b]\n',
      'k/deployment.yaml': DEPLOYMENT,
    };
    const yaml = await buildBoth(files, 'c');
    const hashed = /name: (settings-\w+)\n/.exec(await buildBoth(files, 'k'))![1]!;
    assert.equal((yaml.match(new RegExp(`name: ${hashed}\n`, 'g')) ?? []).length, 2, `the ConfigMap and the reference are ${hashed}: ${yaml}`);
    assert.match(yaml, /^ {2}name: p-web$/m, 'the generator ran after the prefix: only the Deployment is prefixed');
  });

  test("generators: behavior merge works on what earlier steps generated; the hash is the merged content's", async () => {
    const gen = (literal: string, behavior = '') => `- apiVersion: builtin
  kind: ConfigMapGenerator
  metadata: {name: gen-${literal.split('=')[0]}}
  name: settings
  literals: [${literal}]
${behavior}`;
    const files = {
      'c/composition.yaml': `transformers:\n- apiVersion: builtin\n  kind: ResourceAccumulator\n  paths: [deployment.yaml]\n${gen('a=1')}${gen('b=2', '  behavior: merge\n')}`,
      'c/deployment.yaml': DEPLOYMENT,
      'k/kustomization.yaml': 'resources: [deployment.yaml]\nconfigMapGenerator:\n- name: settings\n  literals: [a=1, b=2]\n',
      'k/deployment.yaml': DEPLOYMENT,
    };
    const yaml = await buildBoth(files, 'c');
    const kust = await buildBoth(files, 'k');
    assert.equal(yaml, kust);
  });

  test('HelmChartInflationGenerator as a step: the chart is inflated and appended, as from a Kustomization', { skip: skipHelm }, async () => {
    const helm = `apiVersion: builtin
  kind: HelmChartInflationGenerator
  metadata: {name: chart}
  name: dump
  chartHome: vendor
  releaseName: plug
  valuesInline: {replicaCount: 7}
`;
    const files = {
      ...Object.fromEntries(Object.entries(dumpChart('vendor')).flatMap(([p, t]) => [[`c/${p}`, t], [`k/${p}`, t]])),
      'c/composition.yaml': `transformers:\n${accumulating('a.yaml')}- ${helm}`,
      'c/a.yaml': CM('a'),
      'k/kustomization.yaml': `resources: [a.yaml]\ngenerators:\n- |-\n  ${helm}`,
      'k/a.yaml': CM('a'),
    };
    const options = { enableHelm: true, helmCommand: helmPath() };
    const yaml = await buildOnDisk(files, 'c', options);
    assert.equal(yaml, await buildOnDisk(files, 'k', options));
    assert.match(yaml, /name: plug-dump/);
    await rejectsWith(buildOnDisk(files, 'c'), 'PLUGIN_DISABLED', 'must specify --enable-helm');
  });

  test('a step naming an unknown builtin, or a generator config that fails, is an error naming it', async () => {
    const fs = MemoryFileSystem.from({
      'u/composition.yaml': 'transformers:\n- apiVersion: builtin\n  kind: NoSuchTransformer\n',
      'g/composition.yaml': 'transformers:\n- apiVersion: builtin\n  kind: ConfigMapGenerator\n  name: x\n  literals: [novalue]\n',
    });
    await rejectsWith(build('/u', { fs }), 'PLUGIN_NOT_FOUND', 'unable to load builtin NoSuchTransformer.builtin.[noGrp]');
    await rejectsWith(build('/g', { fs }), 'GENERATOR_FAILED', 'novalue');
  });
});

describe('ResourceAccumulator', () => {
  let server: { url: string; close: () => Promise<void> };
  let repo: string;
  const work = mkdtempSync(join(tmpdir(), 'kts-composition-remote-'));
  before(async () => {
    const files = join(work, 'files');
    mkdirSync(files);
    writeFileSync(join(files, 'remote.yaml'), CM('remote'));
    server = await startServer(join(work, 'srv'), files);
    const src = writeTree({ 'comp/composition.yaml': 'transformers:\n- apiVersion: builtin\n  kind: ResourceAccumulator\n  paths: [cm.yaml]\n', 'comp/cm.yaml': CM('from-git') });
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: src, stdio: 'ignore' });
    git('init', '-q', '-b', 'main');
    git('add', '.');
    git('commit', '-q', '-m', 'c');
    git('tag', 'v1');
    repo = src;
  });
  after(() => server.close());

  test('paths are files, directories holding a Kustomization or a Composition (rendered), HTTP files and git URLs, appended in order', async () => {
    const files = {
      'c/composition.yaml': `transformers:
- apiVersion: builtin
  kind: ResourceAccumulator
  paths: [own.yaml, ../kust, ../comp]
- apiVersion: builtin
  kind: ResourceGenerator
  paths: ["${server.url}/remote.yaml", "file://${repo}//comp?ref=v1"]
`,
      'c/own.yaml': CM('own'),
      'kust/kustomization.yaml': 'resources: [cm.yaml]\nnamePrefix: k-\n',
      'kust/cm.yaml': CM('base'),
      'comp/composition.yaml': 'transformers:\n- apiVersion: builtin\n  kind: ResourceAccumulator\n  paths: [cm.yaml]\n- apiVersion: builtin\n  kind: PrefixSuffixTransformer\n  prefix: c-\n',
      'comp/cm.yaml': CM('base'),
    };
    const yaml = await buildBoth(files, 'c');
    const names = [...yaml.matchAll(/^ {2}name: (.*)$/gm)].map((m) => m[1]);
    assert.deepEqual(names, ['own', 'k-base', 'c-base', 'remote', 'from-git']);
  });

  test('files outside the Composition directory are refused under the default load restrictor; errors name the path', async () => {
    const fs = MemoryFileSystem.from({
      'c/composition.yaml': 'transformers:\n- apiVersion: builtin\n  kind: ResourceAccumulator\n  paths: [../outside.yaml]\n',
      'outside.yaml': CM('outside'),
      'm/composition.yaml': 'transformers:\n- apiVersion: builtin\n  kind: ResourceAccumulator\n  paths: [missing.yaml]\n',
      'bad/composition.yaml': 'transformers:\n- apiVersion: builtin\n  kind: ResourceAccumulator\n  paths: a.yaml\n',
    });
    // as under a Kustomization's resources: the file is refused, then the path is tried as a directory
    await rejectsWith(build('/c', { fs }), 'LOAD_RESTRICTED', "accumulating resources from '../outside.yaml': security; file '/outside.yaml' is not in or below '/c'");
    assert.equal((await build('/c', { fs, loadRestrictor: 'none' })).yaml, CM('outside'));
    await rejectsWith(build('/m', { fs }), 'FILE_NOT_FOUND', "accumulating resources from 'missing.yaml'");
    await rejectsWith(build('/bad', { fs }), 'PLUGIN_FAILED', 'ResourceAccumulator resource-accumulator (configured in composition.yaml): json: cannot unmarshal string');
  });

  test('a conflict between accumulated resources is an error', async () => {
    const fs = MemoryFileSystem.from({
      'c/composition.yaml': 'transformers:\n- apiVersion: builtin\n  kind: ResourceAccumulator\n  paths: [a.yaml]\n- apiVersion: builtin\n  kind: ResourceAccumulator\n  metadata: {name: again}\n  paths: [a.yaml]\n',
      'c/a.yaml': CM('a'),
    });
    await rejectsWith(build('/c', { fs }), 'RESOURCE_CONFLICT', 'may not add resource with an already registered id');
  });
});

test("an imported Composition's paths resolve from its own directory when it runs", async () => {
  const files = {
    'app/composition.yaml': `transformers:\n${accumulating('cm.yaml')}- apiVersion: kustomize.config.k8s.io/v1beta1\n  kind: Kustomization\n  resources: [more.yaml]\n`,
    'app/cm.yaml': CM('from-app'),
    'app/more.yaml': CM('more-from-app'),
    'top/composition.yaml': 'transformersFrom:\n- path: ../app\n',
  };
  assert.equal(await buildBoth(files, 'top'), `${CM('from-app')}---\n${CM('more-from-app')}`);
});

describe('an inline Kustomization', () => {
  test('the resources so far come first, then its own; its fields apply to all; its files resolve from the Composition directory', async () => {
    const files = {
      'c/composition.yaml': `transformers:
- apiVersion: builtin
  kind: ResourceAccumulator
  paths: [a.yaml]
- apiVersion: kustomize.config.k8s.io/v1beta1
  kind: Kustomization
  resources: [b.yaml]
  namePrefix: k-
  configMapGenerator:
  - name: settings
    literals: [x=y]
`,
      'c/a.yaml': CM('a'),
      'c/b.yaml': CM('b'),
    };
    const yaml = await buildBoth(files, 'c');
    const names = [...yaml.matchAll(/^ {2}name: (.*)$/gm)].map((m) => m[1]);
    assert.deepEqual(names, ['k-a', 'k-b', 'k-settings-6gc9d749f7']);
    const same = await buildBoth({ 'k/kustomization.yaml': 'resources: [a.yaml, b.yaml]\nnamePrefix: k-\nconfigMapGenerator:\n- name: settings\n  literals: [x=y]\n', 'k/a.yaml': CM('a'), 'k/b.yaml': CM('b') }, 'k');
    assert.equal(yaml, same, 'as a Kustomization listing the same resources');
  });

  test('an inline Kustomization is checked like a kustomization file', async () => {
    const fs = MemoryFileSystem.from({ 'c/composition.yaml': 'transformers:\n- apiVersion: kustomize.config.k8s.io/v1beta1\n  kind: Kustomization\n  resourcez: []\n' });
    await rejectsWith(build('/c', { fs }), 'KUSTOMIZATION_INVALID', 'json: unknown field "resourcez"');
  });
});

describe('function runtimes', () => {
  const fnTree = (provider: string): Files => ({
    'c/composition.yaml': `transformers:\n- apiVersion: example.com/v1\n  kind: Touch\n  ${provider}\n`,
    'c/touch.sh': exec('#!/bin/sh\ntouch ran\ncat\n'),
    'k/kustomization.yaml': 'transformers:\n- fn.yaml\n',
    'k/fn.yaml': 'apiVersion: example.com/v1\nkind: Touch\nmetadata:\n  name: touch\n  annotations:\n    config.kubernetes.io/function: |\n      exec:\n        path: ./touch.sh\n',
    'k/touch.sh': exec('#!/bin/sh\ntouch ran\ncat\n'),
  });

  test('provider and runtime run exec functions (paths from the Composition directory)', async () => {
    for (const spelling of ['provider', 'runtime']) {
      const dir = writeTree(fnTree(`${spelling}: {exec: {path: ./touch.sh}}`));
      assert.equal((await build(join(dir, 'c'), ALPHA_EXEC)).yaml, '');
      assert.ok(readFileSync(join(dir, 'c/ran')) !== undefined);
    }
  });

  test('the runtime field is gated by the same flags, with the same messages, as the function annotation', async () => {
    const dir = writeTree(fnTree('provider: {exec: {path: ./touch.sh}}'));
    for (const options of [{}, { enablePlugins: true }]) {
      const viaAnnotation = await rejectsWith(build(join(dir, 'k'), options), 'PLUGIN_DISABLED');
      const viaProvider = await rejectsWith(build(join(dir, 'c'), options), 'PLUGIN_DISABLED');
      assert.equal(viaProvider.message, viaAnnotation.message.replace('configured in fn.yaml', 'configured in composition.yaml'));
    }
  });

  test('a container provider runs the function in a real container (podman)', { skip: podman.skip }, async () => {
    const image = 'localhost/kustomize-ts-test/composition-prefix:v1';
    buildImage(image, "/bin/busybox sed -e 's/^    name: \\(.*\\)$/    name: boxed-\\1/'\n");
    const files = {
      'c/composition.yaml': `transformers:
- apiVersion: builtin
  kind: ResourceAccumulator
  paths: [a.yaml]
- apiVersion: example.com/v1
  kind: Boxed
  provider: {container: {image: ${image}}}
`,
      'c/a.yaml': CM('a'),
    };
    assert.equal(await buildOnDisk(files, 'c', { enablePlugins: true }), CM('boxed-a'));
    await rejectsWith(buildOnDisk(files, 'c'), 'PLUGIN_DISABLED', "external plugins disabled; unable to load external plugin 'Boxed'");
  });

  test('a starlark provider runs the script in-process, gated and refused as the starlark function annotation is', async () => {
    const script = 'for r in ctx.resource_list["items"]:\n  r["metadata"].setdefault("labels", {})["team"] = ctx.resource_list["functionConfig"]["spec"]["team"]\n';
    const spec = 'spec:\n  team: blue\n';
    const fs = MemoryFileSystem.from({
      'c/composition.yaml': `transformers:\n${accumulating('a.yaml')}- apiVersion: example.com/v1\n  kind: SetTeam\n  metadata: {name: set-team}\n  provider: {starlark: {path: set-team.star}}\n  ${spec.replace('\n  ', '\n    ')}`,
      'c/a.yaml': CM('a'),
      'c/set-team.star': script,
      'k/kustomization.yaml': 'resources: [a.yaml]\ntransformers: [fn.yaml]\n',
      'k/a.yaml': CM('a'),
      'k/set-team.star': script,
      'k/fn.yaml': `apiVersion: example.com/v1\nkind: SetTeam\nmetadata:\n  name: set-team\n  annotations:\n    config.kubernetes.io/function: |\n      starlark:\n        path: set-team.star\n${spec}`,
    });
    const labelled = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  labels:\n    team: blue\n  name: a\n';
    assert.equal((await build('/c', { fs, enableStar: true })).yaml, labelled);
    assert.equal((await build('/k', { fs, enableStar: true })).yaml, labelled);
    const viaAnnotation = await rejectsWith(build('/k', { fs }), 'PLUGIN_DISABLED');
    const viaProvider = await rejectsWith(build('/c', { fs }), 'PLUGIN_DISABLED');
    assert.equal(viaProvider.message, viaAnnotation.message.replace('configured in fn.yaml', 'configured in composition.yaml'));
  });
});

describe('Compositions in a Kustomization', () => {
  const COMPOSITIONS: Files = {
    'gen/composition.yaml': `transformers:\n${recorder('gen')}- apiVersion: builtin\n  kind: ConfigMapGenerator\n  name: generated\n  literals: [k=v]\n`,
    'gen/recorder.sh': RECORDER,
    'label/composition.yaml': 'transformers:\n- apiVersion: builtin\n  kind: LabelTransformer\n  labels: {team: web}\n  fieldSpecs: [{path: metadata/labels, create: true}]\n',
    'drop/composition.yaml': 'transformers:\n- apiVersion: builtin\n  kind: PatchTransformer\n  patch: |\n    $patch: delete\n    apiVersion: v1\n    kind: ConfigMap\n    metadata: {name: b}\n',
  };

  test('under resources: rendered with empty input, appended', async () => {
    const dir = writeTree({ ...COMPOSITIONS, 'k/kustomization.yaml': 'resources: [a.yaml, ../gen]\nnamePrefix: p-\n', 'k/a.yaml': CM('a') });
    const { yaml } = await build(join(dir, 'k'), ALPHA_EXEC);
    assert.equal(yaml, `${CM('p-a')}---\napiVersion: v1\ndata:\n  k: v\nkind: ConfigMap\nmetadata:\n  name: p-generated-bdg947hgcc\n`);
    assert.equal(readFileSync(join(dir, 'gen/seen.txt'), 'utf8'), '\n', 'the Composition saw no input');
  });

  test('under generators: rendered with empty input, appended as generated', async () => {
    const dir = writeTree({ ...COMPOSITIONS, 'k/kustomization.yaml': 'resources: [a.yaml]\ngenerators: [../gen]\n', 'k/a.yaml': CM('a') });
    const { yaml } = await build(join(dir, 'k'), ALPHA_EXEC);
    assert.match(yaml, /name: a\n---\n.*\n {2}k: v\nkind: ConfigMap\nmetadata:\n {2}name: generated-bdg947hgcc\n$/s);
    assert.equal(readFileSync(join(dir, 'gen/seen.txt'), 'utf8'), '\n');
  });

  test('under transformers: runs on the resources so far, its output replaces them', async () => {
    const files = { ...COMPOSITIONS, 'k/kustomization.yaml': 'resources: [a.yaml, b.yaml]\ntransformers: [../label, ../drop]\n', 'k/a.yaml': CM('a'), 'k/b.yaml': CM('b') };
    assert.equal(await buildBoth(files, 'k'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  labels:\n    team: web\n  name: a\n');
  });

  test('under validators: runs, its output is discarded; a failing step fails the build', async () => {
    const files: Files = {
      ...COMPOSITIONS,
      'k/kustomization.yaml': 'resources: [a.yaml, b.yaml]\nvalidators: [../label, ../drop]\n',
      'k/a.yaml': CM('a'),
      'k/b.yaml': CM('b'),
      'fails/composition.yaml': 'transformers:\n- apiVersion: example.com/v1\n  kind: No\n  provider: {exec: {path: ./no.sh}}\n',
      'fails/no.sh': exec('#!/bin/sh\necho "no team label" >&2\nexit 3\n'),
      'v/kustomization.yaml': 'resources: [a.yaml]\nvalidators: [../fails]\n',
      'v/a.yaml': CM('a'),
    };
    assert.equal(await buildBoth(files, 'k'), `${CM('a')}---\n${CM('b')}`);
    await rejectsWith(buildOnDisk(files, 'v', ALPHA_EXEC), 'PLUGIN_FAILED', 'no team label');
  });

  test('a Composition step may be written as a config: kind Composition with the path of its directory, in a Kustomization or a Composition', async () => {
    const step = (indent: string) => `apiVersion: kustomize.config.k8s.io/v1alpha1\n${indent}kind: Composition\n${indent}metadata: {name: labels}\n${indent}path: ../label\n`;
    const files = {
      ...COMPOSITIONS,
      'k/kustomization.yaml': `resources: [a.yaml]\ntransformers:\n- |\n  ${step('  ')}`,
      'k/a.yaml': CM('a'),
      'c/composition.yaml': `transformers:\n${accumulating('a.yaml')}- ${step('  ')}`,
      'c/a.yaml': CM('a'),
      'bad/composition.yaml': 'transformers:\n- apiVersion: kustomize.config.k8s.io/v1alpha1\n  kind: Composition\n',
    };
    const labelled = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  labels:\n    team: web\n  name: a\n';
    assert.equal(await buildBoth(files, 'k'), labelled);
    assert.equal(await buildBoth(files, 'c'), labelled);
    await rejectsWith(build('/bad', { fs: MemoryFileSystem.from(files as Record<string, string>) }), 'PLUGIN_FAILED', 'a Composition step needs the path of a Composition directory');
  });

  test('origins and transformations name the files of the Composition, relative to the top of the build', async () => {
    const files = {
      ...COMPOSITIONS,
      'c/composition.yaml': `transformers:\n${accumulating('a.yaml')}- apiVersion: kustomize.config.k8s.io/v1alpha1\n  kind: Composition\n  path: ../label\n`,
      'c/a.yaml': CM('a'),
      'o/kustomization.yaml': 'resources: [../c]\nbuildMetadata: [originAnnotations, transformerAnnotations]\n',
    };
    const yaml = await buildBoth(files, 'o');
    assert.match(yaml, /config.kubernetes.io\/origin: \|\n +path: \.\.\/c\/a.yaml\n/);
    assert.match(yaml, /- configuredIn: \.\.\/label\/composition.yaml\n +configuredBy:\n +apiVersion: builtin\n +kind: LabelTransformer\n +name: label-transformer\n/);
    assert.match(yaml, /- configuredIn: \.\.\/c\/composition.yaml\n +configuredBy:\n +apiVersion: kustomize.config.k8s.io\/v1alpha1\n +kind: Composition\n/);
  });

  test('a Component may list Compositions too', async () => {
    const files = {
      ...COMPOSITIONS,
      'comp/kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\ntransformers: [../label]\n',
      'k/kustomization.yaml': 'resources: [a.yaml]\ncomponents: [../comp]\n',
      'k/a.yaml': CM('a'),
    };
    assert.equal(await buildBoth(files, 'k'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  labels:\n    team: web\n  name: a\n');
  });

  test('under components: refused, as a Kustomization is', async () => {
    const fs = MemoryFileSystem.from({ ...COMPOSITIONS, 'k/kustomization.yaml': 'components: [../label]\n' } as Record<string, string>);
    await rejectsWith(build('/k', { fs }), 'KUSTOMIZATION_INVALID', "expected kind 'Component' for path '/label' but got 'Composition'");
  });
});
