/**
 * editors/vscode, as far as this machine allows (VS Code itself is not here): `npm run package`
 * makes the .vsix, which holds what `vsce ls` lists; and the bundle in that .vsix, run as VS Code
 * runs an extension but with test/editors/fake-vscode.ts for the `vscode` module, starts the real
 * server through vscode-languageclient and shows its diagnostics, hover, definition and preview.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import { DEFAULT_SETTINGS } from '../../src/language/settings.js';
import { build } from '../../src/index.js';
import { runCommand } from '../cli/run-command.js';
import { requireTool } from '../require-tool.js';
import { createFakeVscode, type FakeTextDocument } from './fake-vscode.js';
import { languageServer } from './language-server.js';
import { AT_BASE, AT_PREFIX, EXPECTED, OPENED, editedText, fileUri, fixtureCopy, rendered } from './session.js';
import { readZip } from './zip.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const EXTENSION = join(REPO, 'editors', 'vscode');
const extensionPackages = requireTool('vscode-extension');

interface Extension {
  activate(context: { subscriptions: { dispose(): unknown }[] }): Promise<void>;
  deactivate(): Promise<void>;
}

/**
 * Runs the bundle as Node runs a CommonJS module, with the fake as `vscode`; any other module it
 * requires must be Node's own, as a .vsix without node_modules has no other.
 */
function loadBundle(code: string, filename: string, vscode: unknown): Extension {
  const requireNode = createRequire(filename);
  const require = (id: string): unknown => {
    if (id === 'vscode') return vscode;
    if (!isBuiltin(id)) throw new Error(`the bundle requires ${id}, which is not in the .vsix`);
    return requireNode(id);
  };
  const module = { exports: {} };
  const wrapper = new Script(`(function (exports, require, module, __filename, __dirname) {${code}\n})`, { filename }).runInThisContext() as (...args: unknown[]) => void;
  wrapper(module.exports, require, module, filename, dirname(filename));
  return module.exports as Extension;
}

async function until(what: string, condition: () => boolean, record: { output: string[] }): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; the client's output:\n${record.output.join('\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test('the VS Code extension', { skip: extensionPackages.skip, timeout: 180_000 }, async (t) => {
  const scratch = mkdtempSync(join(tmpdir(), 'kustomize-ts-vsix-'));
  t.after(() => rmSync(scratch, { recursive: true, force: true }));
  const vsix = join(scratch, 'kustomize-ts.vsix');
  const packaged = await runCommand('npm', ['run', 'package', '--', '--out', vsix], { cwd: EXTENSION, env: process.env });
  assert.equal(packaged.status, 0, `${packaged.stdout}\n${packaged.stderr}`);
  const files = readZip(readFileSync(vsix));
  const manifest = JSON.parse(files.get('extension/package.json')!.toString('utf8'));

  await t.test('npm run package makes a .vsix of what vsce ls lists: the manifest, the bundle, README and LICENSE', async () => {
    const listed = await runCommand(join(EXTENSION, 'node_modules', '.bin', 'vsce'), ['ls', '--no-dependencies'], { cwd: EXTENSION, env: process.env });
    assert.equal(listed.status, 0, listed.stderr);
    assert.deepEqual(listed.stdout.trim().split('\n').sort(), ['LICENSE', 'README.md', 'dist/extension.js', 'package.json']);
    // vsce's names in the archive: readme.md and LICENSE.txt, beside the manifests of the format
    assert.deepEqual(
      [...files.keys()].sort(),
      ['[Content_Types].xml', 'extension.vsixmanifest', 'extension/LICENSE.txt', 'extension/dist/extension.js', 'extension/package.json', 'extension/readme.md'],
    );
    assert.deepEqual(files.get('extension/LICENSE.txt'), readFileSync(join(REPO, 'LICENSE')));
    assert.deepEqual(files.get('extension/readme.md'), readFileSync(join(EXTENSION, 'README.md')));
    assert.equal(manifest.main, './dist/extension.js');
  });

  await t.test('its manifest: activated by YAML and kustomizations, "Kustomize: Preview", the settings the server reads, whatever runs a program off', () => {
    assert.ok(manifest.activationEvents.includes('onLanguage:yaml'));
    assert.ok(manifest.activationEvents.includes('workspaceContains:**/kustomization.yaml'));
    assert.deepEqual(manifest.contributes.commands.map((c: { command: string; category: string; title: string }) => `${c.command}: ${c.category}: ${c.title}`), ['kustomize.preview: Kustomize: Preview']);
    const settings = manifest.contributes.configuration.properties;
    // every setting the server reads is declared, by the same name, with the server's default
    const flat = (o: object, prefix: string): [string, unknown][] =>
      Object.entries(o).flatMap(([k, v]) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? flat(v, `${prefix}${k}.`) : [[`${prefix}${k}`, v] as [string, unknown]]));
    const served = flat(DEFAULT_SETTINGS, 'kustomize.');
    for (const [name, value] of served) {
      assert.deepEqual([name, settings[name]?.type, settings[name]?.default], [name, Array.isArray(value) ? 'array' : typeof value, value]);
    }
    assert.deepEqual(Object.keys(settings).filter((k) => !served.some(([name]) => name === k)).sort(), ['kustomize.server.path', 'kustomize.trace.server']);
    assert.equal(settings['kustomize.server.path'].default, '');
    // an untrusted workspace's settings can neither pick the program nor let it run others
    assert.equal(settings['kustomize.server.path'].scope, 'machine');
    assert.deepEqual(manifest.capabilities.untrustedWorkspaces.restrictedConfigurations.sort(), [
      'kustomize.allow.exec', 'kustomize.allow.helm', 'kustomize.allow.network', 'kustomize.allow.plugins', 'kustomize.allow.starlark', 'kustomize.loadRestrictor', 'kustomize.server.path',
    ]);
  });

  await t.test('its bundle runs `kustomize-ts lsp --stdio` from PATH by default, and says how to fix it when that fails', async (t) => {
    // a kustomize-ts that writes down its arguments and fails
    const bin = join(scratch, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'kustomize-ts'), '#!/bin/sh\necho "$@" > "$0.args"\nexit 3\n', { mode: 0o755 });
    const { api, record } = createFakeVscode({ version: manifest.engines.vscode.replace(/^\^/, ''), workspaceFolder: scratch, settings: {} });
    const extension = loadBundle(files.get('extension/dist/extension.js')!.toString('utf8'), join(scratch, 'extension.js'), api);
    const path = process.env['PATH'];
    process.env['PATH'] = `${bin}${delimiter}${path}`;
    t.after(() => (process.env['PATH'] = path));
    await extension.activate({ subscriptions: [] });
    assert.equal(readFileSync(join(bin, 'kustomize-ts.args'), 'utf8'), 'lsp --stdio\n');
    // vscode-languageclient says what went wrong in its words; the extension, then, what to do
    assert.match(record.messages.at(-1)!, /^error: Kustomize: could not start the language server \(kustomize-ts lsp --stdio\): .*set kustomize\.server\.path\.$/s, record.messages.join('\n'));
  });

  await t.test("its bundle, under a fake vscode, runs the server and shows its diagnostics, hover, definition, and a preview beside the editor that follows edits", { skip: languageServer.skip }, async (t) => {
    const dir = fixtureCopy();
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    // the oldest VS Code the manifest claims: vscode-languageclient checks that it may run there
    const version = manifest.engines.vscode.replace(/^\^/, '');
    const { api, record, user } = createFakeVscode({ version, workspaceFolder: dir, settings: { kustomize: { server: { path: languageServer.path } } } });
    const extension = loadBundle(files.get('extension/dist/extension.js')!.toString('utf8'), join(scratch, 'extension.js'), api);
    const context = { subscriptions: [] as { dispose(): unknown }[] };
    await extension.activate(context);
    // as VS Code ends an extension, also when an assertion fails: the server must not outlive the test
    t.after(async () => {
      await extension.deactivate();
      context.subscriptions.forEach((d) => d.dispose());
    });
    assert.deepEqual(record.messages, [], 'the server started');

    const file = join(dir, OPENED);
    const document = user.open(file, 'yaml', readFileSync(file, 'utf8'));
    const uri = document.uri.toString();
    await until('diagnostics', () => (record.diagnostics.get(uri)?.length ?? 0) > 0, record);
    const diagnostics = record.diagnostics.get(uri)!;
    assert.equal(diagnostics.length, 1, JSON.stringify(diagnostics));
    assert.deepEqual([diagnostics[0]!.range.start.line, diagnostics[0]!.range.start.character], [EXPECTED.diagnostic.line, EXPECTED.diagnostic.character]);
    assert.match(diagnostics[0]!.message, EXPECTED.diagnostic.message);

    const [hover] = (await user.ask('Hover', document, AT_PREFIX)) as { contents: ({ value: string } | string)[] }[];
    assert.match(hover!.contents.map((c) => (typeof c === 'string' ? c : c.value)).join('\n'), EXPECTED.hover);

    const before = await rendered(dir);
    await record.commands.get('kustomize.preview')!();
    assert.deepEqual(record.messages, []);
    assert.equal(record.shown.length, 1);
    const { document: preview, options } = record.shown[0]! as { document: FakeTextDocument; options: { viewColumn: number; preserveFocus: boolean } };
    assert.equal(preview.uri.scheme, 'kustomize-preview');
    assert.deepEqual([options.viewColumn, options.preserveFocus], [api.ViewColumn.Beside, true]);
    assert.equal(preview.getText(), before, 'the preview is what build prints');
    // go to definition on a line of the preview: where its value was written
    const line = before.split('\n').indexOf(EXPECTED.source.output);
    const [source] = (await user.ask('Definition', preview, { line, character: 4 })) as { uri: unknown; range: { start: { line: number; character: number } } }[];
    assert.deepEqual([String(source!.uri), source!.range.start.line, source!.range.start.character], [fileUri(dir, EXPECTED.source.file), EXPECTED.source.line, EXPECTED.source.character]);
    // the command with a URI, as a code lens gives it: that kustomization's root, in a preview of its own
    await record.commands.get('kustomize.preview')!(fileUri(dir, 'base/kustomization.yaml'));
    assert.equal(record.shown.length, 2);
    assert.equal(record.shown[1]!.document.getText(), (await build(join(dir, 'base'))).yaml);
    assert.notEqual(record.shown[1]!.document.uri.toString(), preview.uri.toString());

    const edited = editedText(dir);
    writeFileSync(file, edited);
    user.edit(document, edited);
    user.save(document);
    const after = await rendered(dir);
    assert.match(after, /name: live-web/);
    await until('the preview to follow the edit', () => preview.getText() !== before, record);
    assert.equal(preview.getText(), after);

    // last, so that what comes before is shown to work also by a server without definitions
    type Location = { uri: unknown; range: { start: { line: number } } };
    type LocationLink = { targetUri: unknown; targetRange: { start: { line: number } } };
    // a Definition: a Location, Locations or LocationLinks, as the server chose
    const [definitions] = (await user.ask('Definition', document, AT_BASE)) as (Location | Location[] | LocationLink[] | undefined)[];
    assert.ok(definitions, 'the server provides definitions');
    const [definition] = [definitions].flat().map((d) => ('targetUri' in d ? { uri: d.targetUri, range: d.targetRange } : d));
    assert.deepEqual([String(definition!.uri), definition!.range.start.line], [fileUri(dir, EXPECTED.definition.file), EXPECTED.definition.line]);

    await extension.deactivate();
    assert.deepEqual(record.messages, []);
  });
});
