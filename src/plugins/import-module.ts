/**
 * Imports an ES module by URL: how in-process plugins are loaded.
 *
 * The bundled CLI replaces this module (scripts/bundle-cli.mjs): its code runs from a `vm.Script`
 * whose `import()` does not work once V8's code cache is used, so there the launcher passes in
 * its own `import`.
 */
export function importModule(url: string): Promise<Record<string, unknown>> {
  return import(url) as Promise<Record<string, unknown>>;
}
