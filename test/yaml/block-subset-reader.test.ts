/**
 * The fast reader for block-style YAML must answer exactly as the full reader (the `yaml`
 * package with yaml.v3's rules) or not at all. Checked on every YAML file of the repository's
 * fixtures and examples, on seeded random mutations of them, and on the constructs it leaves
 * to the full reader.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as nodePath from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { readBlockSubset, type BlockSubsetOptions } from '../../src/yaml/block-subset-reader.js';
import { parseYamlDocuments, parseYamlFully } from '../../src/yaml/parse.js';
import { resolvePlainScalar, resolvePlainScalar11 } from '../../src/yaml/resolve.js';
import { isMap, isStyled, isWrittenEmpty, markSourceTexts, markStyled, markWrittenEmpty, scalarSourceText, type Value, type YMap } from '../../src/yaml/value.js';

/** from dist/test/yaml/ back to the repository */
const REPO = nodePath.resolve(nodePath.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

const DIALECTS = [
  { yaml11: false, options: { resolve: resolvePlainScalar, scalarKeysAsText: false, sourceTexts: false } },
  { yaml11: true, options: { resolve: resolvePlainScalar11, scalarKeysAsText: true, sourceTexts: false } },
  // as patches are read
  { yaml11: false, options: { resolve: resolvePlainScalar, scalarKeysAsText: false, sourceTexts: true } },
] satisfies { yaml11: boolean; options: BlockSubsetOptions }[];

/** Values with key order, number kinds, keys written empty, styles and recorded source texts made visible. */
function describe(v: Value): string {
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v);
  if (Array.isArray(v)) return `[${v.map(describe).join(',')}]`;
  if (isMap(v)) {
    return `{${Object.keys(v)
      .map((k) => {
        const child = v[k]!;
        const texts = isMap(child) ? `#${JSON.stringify(Object.keys(child).map((a) => scalarSourceText(child, a) ?? null))}` : '';
        return `${JSON.stringify(k)}${isWrittenEmpty(v, k) ? '(written empty)' : ''}${isStyled(v, k) ? '(styled)' : ''}:${describe(child)}${texts}`;
      })
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

/** Fails when the subset reader answers and the full reader disagrees (or fails); returns whether it answered. */
function assertAgrees(text: string): boolean {
  let answered = false;
  for (const { yaml11, options } of DIALECTS) {
    if (readBlockSubset(text, options) === undefined) continue;
    answered = true;
    const full = parseYamlFully(text, 'f.yaml', yaml11, options.sourceTexts);
    const fast = parseYamlDocuments(text, 'f.yaml', yaml11 ? { dialect: 'yaml11' } : { sourceTexts: options.sourceTexts });
    assert.equal(describe(fast), describe(full), `${yaml11 ? 'yaml11' : 'yaml.v3'}${options.sourceTexts ? ' with texts' : ''}: ${JSON.stringify(text)}`);
  }
  return answered;
}

function yamlFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = nodePath.join(dir, name);
    if (statSync(path).isDirectory()) yamlFiles(path, out);
    else if (/\.ya?ml$/.test(name)) out.push(path);
  }
  return out;
}

/** Multi-line plain and single-quoted scalars, as controller-gen writes CRD descriptions. */
const CRD_LIKE = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  annotations:
    controller-gen.kubebuilder.io/version: v0.4.1
    note: 0123
      4567
  name: workflows.argoproj.io
spec:
  versions:
  - name: v1alpha1
    schema:
      openAPIV3Schema:
        description: Workflow is the definition of a workflow resource
          that spans lines
        properties:
          apiVersion:
            description: 'APIVersion defines the versioned schema of this representation
              of an object. Servers should convert recognized schemas to the latest
              internal value, and may reject unrecognized values. More info: https://git.k8s.io/community'
            type: string
          items:
            - 'one
              two'
            - three
              four

              five
          kind: |
            literal
          x: 'it''s
            done'  # c
          quoted:
            description: "FeatureGates represents the list of feature gates,
              \\"Secret\\" or \\u00e9t\\u00e9

              \\ kept\\tand \\x41 \\U0001F600"
          rule:
            rule: self.all(x, !has(x.operator) || x.operator in
              ['Equal', 'Exists'])
            message: the value must be either 'A',
              'B', "C" or > 0
              == ok
            dryRun: to perform a \`kubectl apply
              --dry-run\` without performing it
              -1 or :x or ?y
          versions: ["v1", 'v1beta1', v2, 3, true, ""]
          empty: [ ]
          none: { }
          record: :node_memory:sum
          next:
            a value on the next line
              that goes on
          nextQuoted:
            "on the next line"
          nextFlow:
            {}
        type: object
`;

const CORPUS = [...yamlFiles(nodePath.join(REPO, 'test', 'fixtures')), ...yamlFiles(nodePath.join(REPO, 'examples'))].map((f) => readFileSync(f, 'utf8')).concat(CRD_LIKE);

test('on every YAML file of the fixtures and examples, the subset reader agrees with the full reader or declines', () => {
  let answered = 0;
  for (const text of CORPUS) if (assertAgrees(text)) answered++;
  // most files are in the subset, or the fast path would be pointless
  assert.ok(answered > CORPUS.length / 2, `${answered} of ${CORPUS.length}`);
});

test('on seeded random mutations of those files, the subset reader agrees with the full reader or declines', () => {
  const PIECES = [' ', '  ', '\n', '-', '- ', ':', ': ', '#', ' #', '|', '|-', '|+', "'", '"', '[]', '{}', '---\n', 'a: b\n', '  x: 1\n', '\t', '\\', '~', '0', '1e3', 'yes', '<<: ', '&a ', '*a', '? ', '...\n', 'key:\n', '\n  ', '\n- ', '>', '', '\n    word', "'\n  ", " '", '\n\n', "\n  it''s '", '\\"', '\\n', '\\u00e9', '\\x4', '\\ud83d', '\\\n', '"\n   ', '\n   "', '[a, b]', '["x", \'y\']', '[a,]', '[', ']', ', ', '{ }', ':x', '?x', '\n      ||', '\n      "q"', '\n      !x', '\n      --x', '\n      -', '\n      :x', '\n      ? x', '[a,\n  b]', '["x",\n      \'y\']', ',\n  ', '[\n    ', '\n  ]', '\n  , ', ',]', '",\n   ]', '{a: 1}', '{a: b, c: d}', '{"k": \'v\'}', ', k: ', '{k: '];
  let seed = 12345;
  // mulberry32
  const random = (n: number): number => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) % n;
  };
  const small = [...CORPUS.filter((t) => t.length < 3000), ...Array<string>(20).fill(CRD_LIKE)];
  let answered = 0;
  for (let i = 0; i < 4000; i++) {
    let text = small[random(small.length)]!;
    for (let m = 1 + random(8); m > 0; m--) {
      const at = random(text.length + 1);
      text = text.slice(0, at) + PIECES[random(PIECES.length)] + text.slice(at + (random(3) === 0 ? random(4) : 0));
    }
    if (assertAgrees(text)) answered++;
  }
  assert.ok(answered > 400, `only ${answered} mutations were read by the subset reader`);
});

test('the subset: block collections, plain, single- and double-quoted scalars (also over several lines), literal block scalars, flow sequences of scalars', () => {
  const text = [
    '# comment',
    '---',
    'a: 1',
    'b: "x"  # comment',
    "c: 'it''s'",
    'd:',
    '- x',
    '- k: v',
    '  l: 0x1F',
    'e: |',
    '  line',
    '',
    '    more',
    'f: |-',
    '  stripped',
    'g: []',
    'h: {}',
    'i:',
    "j: 'it''s",
    "   folded'",
    'k: plain',
    '  folded',
    '',
    '  twice',
    'metadata:',
    '  annotations:',
    '    n: 0123',
    '---',
    'second: true',
  ].join('\n');
  const first: YMap = { a: 1, b: 'x', c: "it's", d: ['x', { k: 'v', l: 31 }], e: 'line\n\n  more\n', f: 'stripped', g: [], h: {}, i: null, j: "it's folded", k: 'plain folded\ntwice', metadata: { annotations: { n: 83 } } };
  markWrittenEmpty(first, 'i');
  markStyled(first, new Set(['b', 'c', 'e', 'f', 'j']));
  markSourceTexts((first['metadata'] as YMap)['annotations'] as YMap, { n: '0123' });
  assert.equal(describe(readBlockSubset(text, DIALECTS[0]!.options)!), describe([first, { second: true }]));
  assert.ok(assertAgrees(text));
});

test('CRD texts: double-quoted scalars over lines with escapes, plain lines that start with quotes or operators, flow sequences, values on the next line', () => {
  const text = [
    'a: "one',
    '  two  ',
    '',
    '  \\"three\\"\\t\\x41\\u00e9\\U0001F600\\ "',
    'b: self.all(x, !has(x) ||',
    "  x in ['Equal'])",
    '  "quoted" > 0',
    'c: ["v1", \'v2\', v3, 4, ""]',
    'd: { }',
    'e: :x:y',
    'f:',
    '  on the next line',
    '  and the one after',
    'g:',
    '  [ ]',
  ].join('\n');
  assert.deepEqual(readBlockSubset(text, DIALECTS[0]!.options), [
    {
      a: 'one two\n"three"\tAé\u{1F600} ',
      b: "self.all(x, !has(x) || x in ['Equal']) \"quoted\" > 0",
      c: ['v1', 'v2', 'v3', 4, ''],
      d: {},
      e: ':x:y',
      f: 'on the next line and the one after',
      g: [],
    },
  ]);
  assert.ok(assertAgrees(text));
});

test('a flow sequence may break lines after its `[` and its commas, each line deeper than its collection', () => {
  const text = ['command: ["/hello",', '          "--port=8080",', "  '--x']", 'items:', '- args: [', '    a, 2,', '    "b"]', '  next: 1'].join('\n');
  assert.deepEqual(readBlockSubset(text, DIALECTS[0]!.options), [{ command: ['/hello', '--port=8080', '--x'], items: [{ args: ['a', 2, 'b'], next: 1 }] }]);
  assert.ok(assertAgrees(text));
});

test('a flow sequence may break lines before its separators and its `]`, and end with a comma (hand-written args lists)', () => {
  const text = ['args: ["--db_driver=mysql",', '       "--db_port=3306",', '      ]', 'command: [a', '  , b,', '  c', '  ]', 'ports: [1, 2,]', 'x: 1'].join('\n');
  assert.deepEqual(readBlockSubset(text, DIALECTS[0]!.options), [{ args: ['--db_driver=mysql', '--db_port=3306'], command: ['a', 'b', 'c'], ports: [1, 2], x: 1 }]);
  assert.ok(assertAgrees(text));
  // a plain item goes on over a line break until a separator: that is for the full reader
  assert.equal(readBlockSubset('a: [b\n  c]\n', DIALECTS[0]!.options), undefined);
  assert.equal(readBlockSubset('a: [b,\n  c\n]\n', DIALECTS[0]!.options), undefined);
});

test('a flow mapping of scalars on one line, as JSON patches are often written; an annotations map keeps its values as written', () => {
  const patch = ['- {op: remove, path: /spec/selector/app}', "- {op: replace, path: '/spec/replicas', value: 3}", '- { "op": add, path: /x ,value: "a b" } # c', '- {}'].join('\n');
  assert.deepEqual(readBlockSubset(patch, DIALECTS[0]!.options), [
    [{ op: 'remove', path: '/spec/selector/app' }, { op: 'replace', path: '/spec/replicas', value: 3 }, { op: 'add', path: '/x', value: 'a b' }, {}],
  ]);
  assert.ok(assertAgrees(patch));
  const annotated = 'metadata:\n  annotations: {a: 0123, b: "x", c: true}\n  labels: { }\n';
  const [doc] = readBlockSubset(annotated, DIALECTS[0]!.options)! as [{ metadata: { annotations: YMap } }];
  assert.equal(scalarSourceText(doc.metadata.annotations, 'a'), '0123');
  assert.equal(scalarSourceText(doc.metadata.annotations, 'c'), 'true');
  assert.ok(assertAgrees(annotated));
  for (const declined of ['a: {b}\n', 'a: {b: 1,}\n', 'a: {b: [1]}\n', 'a: {b: {c: 1}}\n', 'a: {b:1}\n', 'a: {b: 1, b: 2}\n', 'a: {b: 1,\n  c: 2}\n', 'a: {"b\\tc": 1}\n', 'a: {b: &x 1}\n', 'a: {? b: 1}\n', 'a: {<<: 1}\n', 'a: {b: 1} x\n', 'a: {b: c # d}\n']) {
    assert.equal(readBlockSubset(declined, DIALECTS[0]!.options), undefined, JSON.stringify(declined));
  }
});

test('a document may be a block sequence (JSON patches are written so)', () => {
  const text = '- op: add\n  path: /a\n  value:\n    b: 1\n- op: remove\n  path: /c\n';
  assert.deepEqual(readBlockSubset(text, DIALECTS[0]!.options), [[{ op: 'add', path: '/a', value: { b: 1 } }, { op: 'remove', path: '/c' }]]);
  assert.ok(assertAgrees(text));
});

test('the subset reader leaves everything else to the full reader', () => {
  for (const text of [
    'a: &x 1\nb: *x\n',
    'a: !!str 1\n',
    'a: [1, [2]]\n',
    'a: [b: 1]\n',
    'a: [1,\n\n  2]\n',
    'a: [1,\n2]\n',
    '- a: [1,\n  2]\n',
    'a: [1, # c\n  2]\n',
    'a: [1,\n  # c\n  2]\n',
    'a: [1,\n\t2]\n',
    'a: [1,\n  "x\n  y"]\n',
    'a: "x\\\n  y"\n',
    'a: "\\ud83d\\ude00"\n',
    'a: "\\q"\n',
    '"k\\ty": 1\n',
    'a: multi\n  line\n  - x\n',
    "a: 'multi\nline'\n",
    'a: >\n  folded\n',
    'a: |+\n  keep\n',
    'a: |2\n   indented\n',
    'a:\tb\n',
    'a: 1\na: 2\n',
    '<<: {a: 1}\n',
    'scalar\n',
    '? a\n: b\n',
    'a: b: c\n',
    'a: 1\r\n',
    '%YAML 1.2\n---\na: 1\n',
    'a: 1\n...\n',
    'true: 1\n',
  ]) {
    assert.equal(readBlockSubset(text, DIALECTS[0]!.options), undefined, JSON.stringify(text));
  }
});

test('a patch read with its texts: every map keeps the text of its plain values that read as something else, and which values were quoted or block scalars', () => {
  const text = ['data:', '  a: 0123', '  b: "0123"', '  c: 2001-12-14', '  d: |-', '    x', '  e: abc', '  f: {g: true, h: "i"}', ''].join('\n');
  const [doc] = readBlockSubset(text, DIALECTS[2]!.options)! as [{ data: YMap & { f: YMap } }];
  assert.deepEqual(
    Object.keys(doc.data).map((k) => [k, scalarSourceText(doc.data, k) ?? null, isStyled(doc.data, k)]),
    [['a', '0123', false], ['b', null, true], ['c', '2001-12-14', false], ['d', null, true], ['e', null, false], ['f', null, false]],
  );
  assert.deepEqual([scalarSourceText(doc.data.f, 'g'), isStyled(doc.data.f, 'h')], ['true', true]);
  assert.ok(assertAgrees(text));
});
