/**
 * The playground end to end: scripts/build-playground.mjs builds it without warnings and says
 * how to serve it, and its bundle holds the language service and nothing from Node. In Chromium,
 * the page (served from 127.0.0.1) renders each preloaded example as `kubectl kustomize` renders
 * the same files, re-renders as a file is edited, shows a bad patch's error with its file,
 * restores the files from a share link, and downloads the output; opened as a file, it says it
 * must be served and how. Its editor runs the language service: a problem at the patch line that
 * wrote a wrong value, gone once the text is fixed; hovers, where the mouse or the caret rests,
 * that say what a value becomes in each root and which step changed it. kubectl cannot build a
 * Composition: for the Composition example it builds an equivalent Kustomization (below).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { parse, parseAllDocuments } from 'yaml';
import { REPO } from '../package/packed.js';
import { launchChromium, skipBrowser } from './chromium.js';
import { serveDirectory, type StaticServer } from './static-server.js';

/** what `kubectl kustomize` prints for these files */
async function kubectlKustomize(files: Record<string, string>, target: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'kustomize-ts-playground-'));
  try {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    return (await promisify(execFile)('kubectl', ['kustomize', join(dir, target)], { encoding: 'utf8' })).stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Test data: what kubectl builds in place of the Composition example. The same resources (its
 * ResourceAccumulator's paths) under resources:, its generator under generators: (which kustomize
 * runs after resources: and before transformers:), and its transformer configs under
 * transformers:, in its order (kustomize runs them in the order listed; this Kustomization sets
 * no field whose transformer would run before them). Both builds then finish alike: hash
 * suffixes, name references, legacy sort. The one difference in the configs is a fieldSpecs the
 * Composition leaves to its default: under transformers: kubectl's PrefixTransformer has none,
 * so namePrefix's (metadata/name) is written out. kubectl's ImageTagTransformer needs none: it
 * always updates containers' images.
 */
const COMPOSITION_EQUIVALENT = {
  example: 'A Composition (transformers in sequence)',
  composition: 'app/composition.yaml',
  files: {
    'app/kustomization.yaml': `resources:
- deployment.yaml
- service.yaml
generators:
- generators.yaml
transformers:
- transformers.yaml
`,
    'app/generators.yaml': `apiVersion: builtin
kind: ConfigMapGenerator
metadata:
  name: web-config
name: web-config
literals:
- LOG_LEVEL=info
`,
    'app/transformers.yaml': `apiVersion: builtin
kind: PrefixTransformer
metadata:
  name: prefix
prefix: shop-
fieldSpecs:
- path: metadata/name
---
apiVersion: builtin
kind: LabelTransformer
metadata:
  name: labels
labels:
  app.kubernetes.io/part-of: shop
fieldSpecs:
- path: metadata/labels
  create: true
---
apiVersion: builtin
kind: ImageTagTransformer
metadata:
  name: nginx
imageTag:
  name: nginx
  newTag: 1.27.3-alpine
---
apiVersion: builtin
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
`,
  } as Record<string, string>,
};

type Config = Record<string, unknown>;
const withoutFieldSpecs = ({ fieldSpecs: _, ...rest }: Config): Config => rest;

/**
 * The files kubectl builds for the page's files: as they are, or with the Composition replaced
 * by its equivalent Kustomization (each of the equivalent's files passed through `edit`, as the
 * Composition was). Checks first that the two list the same steps: the same paths, then the same
 * configs in the same order, fieldSpecs added only where the Composition has none.
 */
function kubectlFiles(files: Record<string, string>, edit: (text: string) => string = (t) => t): Record<string, string> {
  const composition = files[COMPOSITION_EQUIVALENT.composition];
  if (composition === undefined) return files;
  const equivalent = Object.fromEntries(Object.entries(COMPOSITION_EQUIVALENT.files).map(([path, text]) => [path, edit(text)]));
  const [accumulator, ...steps] = (parse(composition) as { transformers: Config[] }).transformers;
  const kustomization = parse(equivalent['app/kustomization.yaml']!) as Config;
  assert.equal(accumulator!['kind'], 'ResourceAccumulator');
  assert.deepEqual(kustomization['resources'], accumulator!['paths']);
  const configs = ['app/generators.yaml', 'app/transformers.yaml'].flatMap((f) => parseAllDocuments(equivalent[f]!).map((d) => d.toJS() as Config));
  assert.equal(configs.length, steps.length);
  steps.forEach((step, i) => {
    assert.deepEqual(withoutFieldSpecs(configs[i]!), withoutFieldSpecs(step));
    if (step['fieldSpecs'] !== undefined) assert.deepEqual(configs[i]!['fieldSpecs'], step['fieldSpecs']);
  });
  const { [COMPOSITION_EQUIVALENT.composition]: _, ...resources } = files;
  return { ...resources, ...equivalent };
}

/** the files as the page holds them, read through its file list and editor */
async function pageFiles(page: Page): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const name of await page.locator('#files button').allTextContents()) {
    await page.locator(`#files button[data-file="${name}"]`).click();
    files[name] = await page.locator('#editor').inputValue();
  }
  return files;
}

/** waits until the page has rendered more often than `before` (it numbers its renders) */
async function renderedAfter(page: Page, before: number): Promise<void> {
  await page.waitForFunction((n) => Number(document.body.dataset['renders'] ?? 0) > n, before);
}
const renders = (page: Page) => page.evaluate(() => Number(document.body.dataset['renders'] ?? 0));
const output = (page: Page) => page.locator('#output').textContent();

/** waits until the language service has built and checked the page's newest change (the page numbers those) */
async function checkedAfter(page: Page, before: number): Promise<void> {
  await page.waitForFunction((n) => Number(document.body.dataset['checks'] ?? 0) > n, before);
}
const checks = (page: Page) => page.evaluate(() => Number(document.body.dataset['checks'] ?? 0));
/** the editor's text from the caret on */
const atCaret = (page: Page) => page.locator('#editor').evaluate((e: HTMLTextAreaElement) => e.value.slice(e.selectionStart));

/** The hover shown: each of its parts (a root's, or a field's name and its documentation) as its lines. */
async function hoverShown(page: Page): Promise<(string | null)[][]> {
  await page.locator('#hover').waitFor({ state: 'visible' });
  return page.locator('#hover').evaluate((tip) => [...tip.children].map((part) => (part.matches('p') ? [part.textContent] : [...part.querySelectorAll('p, li')].map((e) => e.textContent))));
}

/**
 * Moves the mouse onto a character (0-based line and character) of the editor, found as the test
 * finds it: the editor's padding, its line height, and the width of its font's characters as a
 * span of that font measures them.
 */
async function mouseOn(page: Page, line: number, character: number): Promise<{ x: number; y: number }> {
  const at = await page.locator('#editor').evaluate((e: HTMLTextAreaElement, [line, character]) => {
    const style = getComputedStyle(e);
    const span = document.createElement('span');
    span.style.font = style.font;
    span.style.whiteSpace = 'pre';
    span.style.position = 'absolute';
    span.textContent = 'x'.repeat(40);
    document.body.append(span);
    const width = span.getBoundingClientRect().width / 40;
    span.remove();
    const box = e.getBoundingClientRect();
    return {
      x: box.left + e.clientLeft + parseFloat(style.paddingLeft) + (character! + 0.5) * width - e.scrollLeft,
      y: box.top + e.clientTop + parseFloat(style.paddingTop) + (line! + 0.5) * parseFloat(style.lineHeight) - e.scrollTop,
    };
  }, [line, character]);
  await page.mouse.move(at.x, at.y);
  return at;
}

/** The example whose patch sets a value of the wrong type, and that patch. */
const WRONG_TYPE = { example: 'A patch with a wrong type (diagnostics, hover)', patch: 'overlays/production/web-patch.yaml' };

let built: string;
/** esbuild's account of the bundle (scripts/build-playground.mjs --metafile) */
let metafile: string;
/** what scripts/build-playground.mjs printed */
let printed: { stdout: string; stderr: string };
before(async () => {
  built = mkdtempSync(join(tmpdir(), 'kustomize-ts-playground-site-'));
  metafile = `${built}.meta.json`;
  // run from the repository, as `npm run playground` runs it
  printed = await promisify(execFile)(process.execPath, [join(REPO, 'scripts/build-playground.mjs'), built, `--metafile=${metafile}`], { cwd: REPO, encoding: 'utf8' });
});
after(() => {
  rmSync(built, { recursive: true, force: true });
  rmSync(metafile, { force: true });
});

test('the build prints no warnings, and says where the page is and how to serve it', () => {
  assert.equal(printed.stderr, '');
  assert.equal(
    printed.stdout,
    `The playground is in ${built}/. Serve it over HTTP (opened as a file, it does not run), e.g.:\n  python3 -m http.server -d ${built} 8000     then open http://localhost:8000/\n`,
  );
});

test('the page holds the language service and nothing from Node: no built-in module, and only the Node modules the package.json browser field leaves out are left out', () => {
  const meta = JSON.parse(readFileSync(metafile, 'utf8')) as { inputs: Record<string, { imports: { path: string; external?: boolean }[] }> };
  const modules = Object.keys(meta.inputs);
  for (const m of ['service', 'workspace', 'hover', 'diagnostics']) assert.ok(modules.includes(`dist/src/language/${m}.js`), m);
  const builtins = new Set(builtinModules);
  const isNode = (path: string) => path.startsWith('node:') || builtins.has(path);
  assert.deepEqual(modules.filter(isNode), []);
  assert.deepEqual(Object.values(meta.inputs).flatMap((m) => m.imports.filter((i) => i.external || isNode(i.path))), []);
  // what esbuild replaced by an empty module, as the package says a browser must
  const browserField = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { browser: Record<string, false> }).browser;
  const left = modules.filter((m) => m.startsWith('(disabled):')).map((m) => `./${m.slice('(disabled):'.length)}`);
  assert.deepEqual(left.filter((m) => browserField[m] !== false), []);
  assert.doesNotMatch(readFileSync(join(built, 'app.js'), 'utf8'), /(?:from |import\(|require\()["']node:/);
});

describe('the playground in Chromium', { skip: skipBrowser }, () => {
  let site: StaticServer;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  before(async () => {
    site = await serveDirectory(built);
    browser = await launchChromium();
    page = await browser.newPage();
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(`${site.origin}/`);
    await renderedAfter(page, 0);
  });
  after(async () => {
    await browser?.close();
    await site?.close();
    assert.deepEqual(pageErrors, []);
  });

  test('served, the page starts: the message for a page opened as a file is gone', async () => {
    assert.equal(await page.locator('#not-started').count(), 0);
  });

  test('opened as a file, where the browser refuses its module script, the page says it must be served and how', async () => {
    const fromDisk = await browser.newPage();
    try {
      // the module script would have run (or failed) before the load event
      await fromDisk.goto(pathToFileURL(join(built, 'index.html')).href);
      assert.equal(await renders(fromDisk), 0);
      const message = fromDisk.locator('#not-started');
      assert.equal(await message.isVisible(), true);
      assert.match((await message.innerText()).replace(/\s+/g, ' '), /a browser does not run its script from a page opened as a file \(file:\/\/\)\. Serve this page's directory over HTTP/);
      assert.equal(await message.locator('code', { hasText: 'http.server' }).textContent(), 'python3 -m http.server -d playground/dist 8000');
    } finally {
      await fromDisk.close();
    }
  });

  test('each example renders as kubectl kustomize renders its files', async () => {
    const examples = await page.locator('#example option').allTextContents();
    assert.ok(examples.length >= 4, examples.join(', '));
    for (let i = 0; i < examples.length; i++) {
      const n = await renders(page);
      await page.locator('#example').selectOption(String(i));
      await renderedAfter(page, n);
      const target = await page.locator('#target').inputValue();
      assert.equal(await page.locator('#error').isHidden(), true, examples[i]);
      const expected = await kubectlKustomize(kubectlFiles(await pageFiles(page)), target);
      assert.ok(expected.length > 100, `${examples[i]} renders something`);
      assert.equal(await output(page), expected, examples[i]);
    }
  });

  test('editing a file re-renders, as kubectl renders the edited files', async () => {
    const n = await renders(page);
    await page.locator('#example').selectOption('0');
    await renderedAfter(page, n);
    const file = 'overlays/production/kustomization.yaml';
    await page.locator(`#files button[data-file="${file}"]`).click();
    const before = await output(page);
    const edited = (await page.locator('#editor').inputValue()).replace('namePrefix: prod-', 'namePrefix: live-');
    const m = await renders(page);
    await page.locator('#editor').fill(edited);
    await renderedAfter(page, m);
    const after = await output(page);
    assert.notEqual(after, before);
    assert.match(after ?? '', /name: live-web/);
    assert.equal(after, await kubectlKustomize(await pageFiles(page), await page.locator('#target').inputValue()));
  });

  test('hovering a value of the output says who wrote it; clicking it opens its file at the value', async () => {
    const n = await renders(page);
    await page.locator('#example').selectOption('0');
    await renderedAfter(page, n);
    const image = page.locator('#output .written', { hasText: 'image: nginx:1.27.3' });
    await image.hover();
    assert.equal(await page.locator('#origin').textContent(), 'images[0] · overlays/production/kustomization.yaml:12:11');
    await image.click();
    assert.equal(await page.locator('#current-file').textContent(), 'overlays/production/kustomization.yaml');
    assert.match(await atCaret(page), /^"1\.27\.3"\n/);
    // a value read from a base's resource file, no step changing it
    await page.locator('#output .written', { hasText: '- containerPort: 80' }).click();
    assert.equal(await page.locator('#current-file').textContent(), 'base/deployment.yaml');
    assert.match(await atCaret(page), /^80\n/);
    // a component's annotation
    await page.locator('#output .written', { hasText: 'prometheus.io/port: "80"' }).first().click();
    assert.equal(await page.locator('#current-file').textContent(), 'components/monitoring/kustomization.yaml');
    assert.match(await page.locator('#origin').textContent() ?? '', /^commonAnnotations · components\/monitoring\/kustomization\.yaml:5:23$/);
    assert.match(await atCaret(page), /^"80"\n/);
  });

  test('the Composition example is a Composition; editing it re-renders, as kubectl renders the edited equivalent', async () => {
    const n = await renders(page);
    await page.locator('#example').selectOption({ label: COMPOSITION_EQUIVALENT.example });
    await renderedAfter(page, n);
    // the Composition is the file shown first, and its directory the one built
    assert.equal(await page.locator('#current-file').textContent(), COMPOSITION_EQUIVALENT.composition);
    assert.equal(await page.locator('#target').inputValue(), 'app');
    assert.deepEqual(Object.keys(await pageFiles(page)).sort(), ['app/composition.yaml', 'app/deployment.yaml', 'app/service.yaml']);
    await page.locator(`#files button[data-file="${COMPOSITION_EQUIVALENT.composition}"]`).click();
    const before = await output(page);
    assert.match(before ?? '', /name: shop-web-config-\w{10}\n/);
    // the prefix step's prefix, and the image step's tag
    const edit = (text: string) => text.replace('prefix: shop-', 'prefix: store-').replace('newTag: 1.27.3-alpine', 'newTag: 1.28.0');
    const m = await renders(page);
    await page.locator('#editor').fill(edit(await page.locator('#editor').inputValue()));
    await renderedAfter(page, m);
    const after = await output(page);
    assert.notEqual(after, before);
    assert.match(after ?? '', /name: store-web\n/);
    assert.match(after ?? '', /image: nginx:1\.28\.0\n/);
    assert.equal(after, await kubectlKustomize(kubectlFiles(await pageFiles(page), edit), 'app'));
  });

  test('a bad patch shows its error, with the file', async () => {
    const n = await renders(page);
    await page.locator('#example').selectOption({ label: 'Patches' });
    await renderedAfter(page, n);
    await page.locator('#files button[data-file="app/port-patch.yaml"]').click();
    const m = await renders(page);
    await page.locator('#editor').fill('this: [is not a patch\n');
    await renderedAfter(page, m);
    const error = page.locator('#error');
    assert.equal(await error.isVisible(), true);
    assert.equal(await error.locator('.code').textContent(), 'PATCH_FAILED');
    assert.equal(await error.locator('.file').textContent(), 'app/port-patch.yaml');
    assert.match((await error.textContent()) ?? '', /unable to parse SM or JSON patch/);
    assert.equal(await page.locator('#files button.has-error').textContent(), 'app/port-patch.yaml');
  });

  test('the share link restores the files; the download is the output', async () => {
    const n = await renders(page);
    await page.locator('#example').selectOption({ label: 'Generators with hash' });
    await renderedAfter(page, n);
    await page.locator('#files button[data-file="app/nginx.conf"]').click();
    const m = await renders(page);
    await page.locator('#editor').fill('server {\n  listen 8080;\n}\n');
    await renderedAfter(page, m);
    const rendered = await output(page);

    await page.locator('#share').click();
    // the link is made asynchronously (compression): it shows when done
    await page.locator('#share-link').waitFor({ state: 'visible' });
    const link = await page.locator('#share-link').inputValue();
    assert.match(link, new RegExp(`^${site.origin}/#code=[\\w-]+$`));
    const other = await browser.newPage();
    try {
      await other.goto(link);
      await renderedAfter(other, 0);
      assert.equal(await output(other), rendered);
      assert.deepEqual(await pageFiles(other), await pageFiles(page));
    } finally {
      await other.close();
    }

    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#download').click()]);
    assert.equal(download.suggestedFilename(), 'app.yaml');
    assert.equal(readFileSync((await download.path())!, 'utf8'), rendered);
  });

  test('the language service: a patch that sets a wrong type has a problem at its line, in the list and the gutter; the problem opens there; fixing the text clears it', async () => {
    const n = await checks(page);
    await page.locator('#example').selectOption({ label: WRONG_TYPE.example });
    await checkedAfter(page, n);
    // the example opens at the patch, whose line 6 sets the value
    assert.equal(await page.locator('#current-file').textContent(), WRONG_TYPE.patch);
    const editor = page.locator('#editor');
    assert.equal((await editor.inputValue()).split('\n')[5], '  replicas: "three"');
    const message = 'Deployment/prod-web: /spec/replicas: expected an integer, got string "three"';
    assert.deepEqual(await page.locator('#problems li').allTextContents(), [`${WRONG_TYPE.patch}:6 SCHEMA_VIOLATION ${message}`]);
    assert.equal(await page.locator('#problem-count').textContent(), '1');
    assert.deepEqual(await page.locator('#gutter .problem.error').allTextContents(), ['6']);
    assert.equal(await page.locator('#gutter .problem').getAttribute('title'), message);
    assert.equal(await editor.getAttribute('aria-invalid'), 'true');
    assert.deepEqual(await page.locator('#files button[data-problems="1"]').allTextContents(), [WRONG_TYPE.patch]);

    // from another file, the problem opens its file with the caret at the value, and shows its hover
    await page.locator('#files button[data-file="base/deployment.yaml"]').click();
    assert.equal(await page.locator('#gutter .problem').count(), 0);
    await page.locator('#problems button').click();
    assert.equal(await page.locator('#current-file').textContent(), WRONG_TYPE.patch);
    assert.match(await atCaret(page), /^"three"\n/);
    assert.deepEqual(await hoverShown(page), [['overlays/production', 'Deployment/prod-web spec.replicas = "three" (patches[0])']]);

    const m = await checks(page);
    await editor.fill((await editor.inputValue()).replace('"three"', '3'));
    await checkedAfter(page, m);
    assert.equal(await page.locator('#problems li').count(), 0);
    assert.equal(await page.locator('#problem-count').textContent(), 'none');
    assert.equal(await page.locator('#gutter .problem').count(), 0);
    assert.equal(await editor.getAttribute('aria-invalid'), 'false');
    assert.equal(await page.locator('#files button[data-problems]').count(), 0);
  });

  test('resting the mouse on a value shows what it becomes in each root that reads it, and which step changed it where', async () => {
    const n = await checks(page);
    await page.locator('#example').selectOption({ label: WRONG_TYPE.example });
    await checkedAfter(page, n);
    await page.locator('#files button[data-file="base/deployment.yaml"]').click();
    assert.equal((await page.locator('#editor').inputValue()).split('\n')[5], '  replicas: 1');
    const at = await mouseOn(page, 5, 12);
    assert.deepEqual(await hoverShown(page), [
      ['base', 'Deployment/web spec.replicas = 1 (resource)'],
      ['overlays/production', `Deployment/prod-web spec.replicas = "three", by patches[0] at ${WRONG_TYPE.patch}:6:13; here 1 (resource)`],
      ['overlays/staging', 'Deployment/staging-web spec.replicas = 1 (resource)'],
    ]);
    // the tooltip is at the value: just below its line (the mouse is at the line's middle), across its column
    const tip = (await page.locator('#hover').boundingBox())!;
    assert.ok(tip.y > at.y && tip.y - at.y < 19 && tip.x <= at.x && at.x < tip.x + tip.width, JSON.stringify({ tip, at }));
    // beyond the end of the line there is nothing to say
    await mouseOn(page, 5, 30);
    await page.locator('#hover').waitFor({ state: 'hidden' });
  });

  test('resting the caret on a value shows its hover; on a kustomization field, what the field does', async () => {
    const n = await checks(page);
    await page.locator('#example').selectOption({ label: WRONG_TYPE.example });
    await checkedAfter(page, n);
    const editor = page.locator('#editor');
    assert.equal((await editor.inputValue()).split('\n')[10], '        image: nginx:1.27-alpine');
    await editor.click();
    await page.keyboard.press('Control+Home');
    for (let i = 0; i < 10; i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('End');
    assert.deepEqual(await hoverShown(page), [
      ['overlays/production', 'Deployment/prod-web spec.template.spec.containers[0].image = "nginx:1.27.3", by images[0] at overlays/production/kustomization.yaml:8:11; here "nginx:1.27-alpine" (patches[0])'],
    ]);
    await page.keyboard.press('Escape');
    await page.locator('#hover').waitFor({ state: 'hidden' });
    // the step that changed it: the kustomization's line 8, column 11
    await page.locator('#files button[data-file="overlays/production/kustomization.yaml"]').click();
    assert.equal((await editor.inputValue()).split('\n')[7]!.slice(10), '"1.27.3"');
    await editor.click();
    await page.keyboard.press('Control+Home');
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowRight');
    assert.equal((await atCaret(page)).split('\n')[0], 'atches:');
    const [field, doc] = await hoverShown(page);
    assert.deepEqual(field, ['patches']);
    assert.match(doc?.[0] ?? '', /^Patches, strategic-merge or JSON \(RFC 6902\)/);
  });

  test('a file added is a document of the language service, and its problems go with it when it is deleted', async () => {
    const n = await checks(page);
    await page.locator('#example').selectOption({ label: WRONG_TYPE.example });
    await checkedAfter(page, n);
    const added = 'overlays/dev/kustomization.yaml';
    page.once('dialog', (d) => void d.accept(added));
    await page.locator('#add-file').click();
    assert.equal(await page.locator('#current-file').textContent(), added);
    const m = await checks(page);
    await page.locator('#editor').fill('resources:\n- ../../missing\n');
    await checkedAfter(page, m);
    // a new root, whose resource is not there, beside the patch's problem
    const problems = await page.locator('#problems li .place').allTextContents();
    assert.deepEqual(problems, [`${added}:2`, `${WRONG_TYPE.patch}:6`]);
    assert.deepEqual(await page.locator('#gutter .problem').allTextContents(), ['2']);
    const k = await checks(page);
    page.once('dialog', (d) => void d.accept());
    await page.locator('#delete-file').click();
    await checkedAfter(page, k);
    assert.deepEqual(await page.locator('#problems li .place').allTextContents(), [`${WRONG_TYPE.patch}:6`]);
    assert.equal(await page.locator('#checking').textContent(), '');
  });
});
