/**
 * The checker on schemas written here: each keyword and Kubernetes extension, with the
 * violations it must give (path, kind, message) and the values it must let through.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkValue, type Violation } from '../../src/schema/check.js';
import { SchemaDocument } from '../../src/schema/document.js';

/** The violations of `value` against `schema` (a raw schema, its `$ref`s into `defs`). */
function violations(schema: unknown, value: unknown, options: { strict?: boolean; defs?: Record<string, unknown> } = {}): Violation[] {
  const doc = SchemaDocument.of({ root: schema, definitions: options.defs ?? {} }, 'test.json');
  return checkValue(value, doc.node('#/root')!, { strict: options.strict ?? false });
}

const messages = (v: Violation[]) => v.map((x) => `${x.path.join('.')}: ${x.message}`);

test('types: an integer is a number; a string where an integer goes names both', () => {
  assert.deepEqual(violations({ type: 'integer' }, 3), []);
  assert.deepEqual(violations({ type: 'number' }, 3), []);
  assert.deepEqual(violations({ type: 'number' }, 2.5), []);
  assert.deepEqual(violations({ type: 'integer' }, 2.5), [{ path: [], kind: 'value', message: 'expected an integer, got number 2.5' }]);
  assert.deepEqual(messages(violations({ type: 'integer' }, 'three')), [': expected an integer, got string "three"']);
  assert.deepEqual(messages(violations({ type: 'object' }, [1])), [': expected a map, got a list']);
  assert.deepEqual(messages(violations({ type: ['string', 'integer'] }, true)), [': expected a string or an integer, got boolean true']);
  assert.deepEqual(violations({ type: 'integer' }, 2n ** 70n), []);
});

test('null is taken as unset: it breaks no type, and counts as present for required', () => {
  assert.deepEqual(violations({ type: 'object', required: ['a'], properties: { a: { type: 'string' } } }, { a: null }), []);
  assert.deepEqual(violations({ type: 'integer' }, null), []);
});

test('int-or-string, by format or extension, takes both and nothing else', () => {
  for (const schema of [{ type: 'string', format: 'int-or-string' }, { format: 'int-or-string' }, { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] }]) {
    assert.deepEqual(violations(schema, 8080), []);
    assert.deepEqual(violations(schema, 'http'), []);
    assert.deepEqual(messages(violations(schema, { port: 1 })), [': expected an integer or a string, got a map']);
  }
});

test('quantities: a number, or a string in the quantity grammar', () => {
  const q = { type: 'string', format: 'quantity' };
  for (const ok of [1, 0.5, '500m', '1.5Gi', '2', '1e3', '+1k', '.5']) assert.deepEqual(violations(q, ok), [], String(ok));
  for (const bad of ['1Gx', 'one', '1 Gi', '1.5.0', '']) assert.equal(violations(q, bad).length, 1, bad);
});

test('formats: int32 and int64 ranges, date-time, date, byte, duration', () => {
  assert.deepEqual(violations({ type: 'integer', format: 'int32' }, 2147483647), []);
  assert.deepEqual(messages(violations({ type: 'integer', format: 'int32' }, 2147483648)), [': 2147483648 is out of the int32 range [-2147483648, 2147483647]']);
  assert.deepEqual(violations({ type: 'integer', format: 'int64' }, 2n ** 63n - 1n), []);
  assert.equal(violations({ type: 'integer', format: 'int64' }, 2n ** 63n).length, 1);
  const dt = { type: 'string', format: 'date-time' };
  for (const ok of ['2024-02-29T10:00:00Z', '2024-01-01T00:00:00.123+02:00']) assert.deepEqual(violations(dt, ok), [], ok);
  for (const bad of ['2023-02-29T10:00:00Z', '2024-01-01 10:00:00Z', '2024-01-01T25:00:00Z', 'yesterday']) assert.equal(violations(dt, bad).length, 1, bad);
  assert.deepEqual(violations({ type: 'string', format: 'date' }, '2024-12-31'), []);
  assert.equal(violations({ type: 'string', format: 'date' }, '2024-13-01').length, 1);
  assert.deepEqual(violations({ type: 'string', format: 'byte' }, 'aGVsbG8='), []);
  assert.deepEqual(violations({ type: 'string', format: 'byte' }, 'aGVs\nbG8='), []);
  assert.deepEqual(messages(violations({ type: 'string', format: 'byte' }, 'hello!')), [': not valid base64 (standard encoding, with padding)']);
  for (const ok of ['1h30m', '90s', '250ms', '0', '-1.5h', '1d']) assert.deepEqual(violations({ type: 'string', format: 'duration' }, ok), [], ok);
  for (const bad of ['1 hour', 'h', '10']) assert.equal(violations({ type: 'string', format: 'duration' }, bad).length, 1, bad);
  // a format nothing here knows checks nothing
  assert.deepEqual(violations({ type: 'string', format: 'password' }, 'x'), []);
});

test('required, enum, const, pattern (RE2, unanchored), lengths in characters, bounds', () => {
  assert.deepEqual(messages(violations({ type: 'object', required: ['name', 'image'] }, { image: 'x' })), [': missing required field "name"']);
  assert.deepEqual(messages(violations({ enum: ['Always', 'Never'] }, 'Sometimes')), [': unsupported value "Sometimes": must be one of "Always", "Never"']);
  assert.deepEqual(violations({ enum: [1, 2] }, 2n), []);
  assert.deepEqual(messages(violations({ const: 'v1' }, 'v2')), [': must be "v1"']);
  assert.deepEqual(violations({ type: 'string', pattern: '[a-z]+' }, 'ABCd'), []);
  assert.deepEqual(messages(violations({ type: 'string', pattern: '^[a-z]+$' }, 'ABCd')), [': "ABCd" does not match the pattern ^[a-z]+$']);
  // a pattern RE2 cannot compile (a backreference) checks nothing
  assert.deepEqual(violations({ type: 'string', pattern: '(a)\\1' }, 'ab'), []);
  assert.deepEqual(violations({ type: 'string', maxLength: 3 }, '😀😀😀'), []);
  assert.deepEqual(messages(violations({ type: 'string', minLength: 2 }, 'a')), [': must be at least 2 characters long']);
  assert.deepEqual(messages(violations({ type: 'integer', minimum: 1, maximum: 10 }, 0)), [': must be at least 1, got 0']);
  assert.deepEqual(messages(violations({ type: 'integer', minimum: 1, exclusiveMinimum: true }, 1)), [': must be greater than 1, got 1']);
  assert.deepEqual(messages(violations({ type: 'integer', exclusiveMaximum: 5 }, 5)), [': must be less than 5, got 5']);
  assert.deepEqual(messages(violations({ type: 'number', multipleOf: 0.5 }, 1.25)), [': must be a multiple of 0.5, got 1.25']);
  assert.deepEqual(messages(violations({ type: 'array', minItems: 1 }, [])), [': must have at least 1 item']);
  assert.deepEqual(messages(violations({ type: 'object', maxProperties: 1 }, { a: 1, b: 2 })), [': must have at most 1 field']);
});

test('unknown fields: refused where additionalProperties is false, and everywhere with properties when strict, unless kept', () => {
  const schema = { type: 'object', properties: { a: { type: 'string' }, kept: { type: 'object', properties: { x: {} }, 'x-kubernetes-preserve-unknown-fields': true }, free: { type: 'object' } } };
  const value = { a: 'x', b: 1, kept: { y: 1 }, free: { z: 1 } };
  assert.deepEqual(violations(schema, value), []);
  assert.deepEqual(violations(schema, value, { strict: true }), [{ path: ['b'], kind: 'unknown', message: 'unknown field "b"' }]);
  assert.deepEqual(messages(violations({ type: 'object', properties: {}, additionalProperties: false }, { b: 1 })), ['b: unknown field "b"']);
  assert.deepEqual(violations({ type: 'object', additionalProperties: { type: 'string' } }, { any: 'x' }, { strict: true }), []);
  assert.deepEqual(messages(violations({ type: 'object', additionalProperties: { type: 'string' } }, { any: 1 })), ['any: expected a string, got integer 1']);
  assert.deepEqual(violations({ type: 'object', properties: {}, patternProperties: { '^x-': { type: 'string' } } }, { 'x-a': 'y' }, { strict: true }), []);
});

test('list-type map: no two items with the same keys, a key left out taking its default; set: no item twice', () => {
  const ports = {
    type: 'array',
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-list-map-keys': ['containerPort', 'protocol'],
    items: { type: 'object', properties: { containerPort: { type: 'integer' }, protocol: { type: 'string', default: 'TCP' } } },
  };
  assert.deepEqual(violations(ports, [{ containerPort: 80 }, { containerPort: 80, protocol: 'UDP' }]), []);
  assert.deepEqual(violations(ports, [{ containerPort: 80 }, { containerPort: 80, protocol: 'TCP' }]), [
    { path: [1], kind: 'duplicate', message: 'duplicate entry with containerPort=80, protocol="TCP" (also item 0)' },
  ]);
  assert.deepEqual(messages(violations({ type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } }, ['a', 'b', 'a'])), ['2: duplicate item "a" (also item 0)']);
  assert.deepEqual(violations({ type: 'array', 'x-kubernetes-list-type': 'atomic' }, ['a', 'a']), []);
  assert.deepEqual(messages(violations({ type: 'array', uniqueItems: true }, [{ a: 1, b: 2 }, { b: 2, a: 1 }])), ['1: duplicate of item 0']);
});

test('an embedded resource needs its apiVersion and kind, and its metadata is no unknown field', () => {
  const schema = { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object' } } };
  assert.deepEqual(violations(schema, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'x' }, spec: {} }, { strict: true }), []);
  assert.deepEqual(messages(violations(schema, { spec: {} })), [': missing required field "apiVersion" of the embedded resource', ': missing required field "kind" of the embedded resource']);
});

test('allOf, anyOf, oneOf, not; a reference followed in its document, also to itself', () => {
  assert.deepEqual(messages(violations({ allOf: [{ type: 'string' }, { maxLength: 1 }] }, 'ab')), [': must be at most 1 characters long']);
  // anyOf with no fit: the nearest alternative's violation
  assert.deepEqual(messages(violations({ anyOf: [{ type: 'integer' }, { type: 'string', pattern: '^\\d+%$' }] }, '50')), [': "50" does not match the pattern ^\\d+%$']);
  assert.deepEqual(messages(violations({ oneOf: [{ type: 'integer' }, { type: 'number' }] }, 1)), [': matches 2 of the schemas of oneOf, where exactly one must match']);
  assert.deepEqual(messages(violations({ not: { type: 'string' } }, 'x')), [': matches the schema it must not (not)']);
  const defs = { Node: { type: 'object', properties: { value: { type: 'integer' }, next: { $ref: '#/definitions/Node' } } } };
  assert.deepEqual(messages(violations({ $ref: '#/definitions/Node' }, { value: 1, next: { value: 2, next: { value: 'x' } } }, { defs })), ['next.next.value: expected an integer, got string "x"']);
  // a reference that does not resolve says nothing
  assert.deepEqual(violations({ $ref: '#/definitions/Missing' }, 1), []);
});

test('a keyword of the wrong shape is SCHEMA_INVALID, naming the file and the place, when the check first reaches it', () => {
  assert.throws(() => violations({ type: 'text' }, 1), { code: 'SCHEMA_INVALID', file: 'test.json', message: 'invalid schema at /root/type: unknown type "text"' });
  const deep = { type: 'object', properties: { a: { required: 'yes' } } };
  // a schema below another is read when a value reaches it: a CRD's has thousands, a resource reaches few
  assert.deepEqual(violations(deep, { b: 1 }), []);
  assert.throws(() => violations(deep, { a: {} }), { code: 'SCHEMA_INVALID', message: 'invalid schema at /root/properties/a/required: required must be a list of field names' });
});
