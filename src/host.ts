/**
 * Whether the JavaScript host is Node (or a runtime that offers Node's modules, as Deno and Bun
 * do). Browsers and workers are not, even where a bundler defines a `process` object: that
 * object has no `versions.node`.
 */
export function hostIsNode(): boolean {
  return typeof process !== 'undefined' && typeof process.versions?.node === 'string';
}
