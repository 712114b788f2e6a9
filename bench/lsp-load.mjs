#!/usr/bin/env node
// The language server as an editor drives it (issue 38): `kustomize-ts lsp --stdio` in a process
// of its own, spoken to over LSP by the tests' client (dist/test/lsp/client.js, on
// vscode-jsonrpc), on
//   - the real-world trees (--real-world, bench/README.md): one server per project, its folder the
//     project's directory (every kustomization in it a root, as an editor opening the project
//     finds them). For each tree, its kustomization file is opened and edited, unsaved: a line
//     `imageTags: []` (a deprecated field no tree uses, which changes nothing in the output) added
//     and removed again, each edit waited for until the server has published the file's new
//     diagnostics (the deprecation warning comes and goes, from every root that read the file).
//     The latency of an edit is from sending didChange to that publication. Then hovers on the
//     first resource file the tree names: the first, on its first line holding a value, repeated
//     until no root is "not shown yet" (explain's records of each root reading the file made),
//     apart; then one on each of its first 40 lines, warm. Then go to definition on each of the
//     kustomization file's first 40 lines (on the entry of a list item): a pass apart (a patch
//     target's makes the records of the roots that read the file), then again, warm. Then previews
//     of the tree's root (kustomize/preview on its kustomization): the first, 20 warm (the files
//     unchanged: answered from what the server kept), and one after each of 6 unsaved edits (the
//     `imageTags: []` line added and removed: the root built again, then a build recording
//     provenance for the origins). Then, once every root is built and checked, completion 20
//     times each (the first apart), warm: at a key of the kustomization (its first line's start),
//     and in a patch body (the first child of `spec:` in the first patch file it names, or in an
//     inline patch).
//   - a repository (--repo, e.g. 539 roots): the time from starting the server to the first
//     diagnostics of a file opened at once (a kustomization in the middle of the repository), to
//     every root built, the server's peak RSS, and the same edits on the opened file.
// Trees whose root fails to build (helm, the network: nothing runs or is fetched in the editor by
// default) cannot show the warning and are counted apart.
//
//   npm run build && node bench/lsp-load.mjs [--real-world FILE.tar.gz] [--repo DIR] [--edits 20]
//
// Prints a markdown section on stdout, progress on stderr. Exit 1 when a goal is missed: an edit's
// diagnostics later than 100 ms, a warm hover, definition or completion later than 30 ms at the
// 95th percentile on a tree, the repository's first diagnostics later than 2 s, or its peak RSS
// over 600 MB.

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { LspClient } = await import(path.join(REPO, 'dist', 'test', 'lsp', 'client.js'));
const { findRoots } = await import(path.join(REPO, 'dist', 'src', 'build', 'roots.js'));
const { DiskFileSystem } = await import(path.join(REPO, 'dist', 'src', 'fs', 'disk.js'));

const args = process.argv.slice(2);
const flag = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const EDITS = Number(flag('--edits', '20'));
const GOALS = { editMs: 100, hoverMs: 30, definitionMs: 30, completionMs: 30, firstMs: 2000, rssMb: 600 };
const log = (m) => process.stderr.write(`${m}\n`);
const uri = (p) => pathToFileURL(p).href;

const percentile = (values, p) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const ms = (v) => (Number.isNaN(v) ? '—' : `${v.toFixed(v < 10 ? 1 : 0)} ms`);

/** The CPU time a process has used (user and system), in ms: on a busy machine, what a request cost the server apart from waiting for a core. */
function cpuMs(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;

/** VmHWM of a process (peak resident set), in MB. */
function peakRssMb(pid) {
  const m = /^VmHWM:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

const KUSTOMIZATION_NAMES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];
const kustomizationIn = (dir) => KUSTOMIZATION_NAMES.map((n) => path.join(dir, n)).find((f) => fs.existsSync(f));
const EDIT_LINE = 'imageTags: []';

/**
 * Edits the open kustomization `file` (text `text`) `edits` times, adding then removing the
 * deprecated line; returns each edit's latency (ms), or undefined when the warning never shows
 * (the root does not build).
 */
async function editLatencies(client, file, text, edits) {
  const k = uri(file);
  const withLine = `${text.endsWith('\n') || text === '' ? text : `${text}\n`}${EDIT_LINE}\n`;
  const deprecated = (d) => d.some((x) => x.code === 'FIELD_DEPRECATED' && /'imageTags'/.test(String(x.message)));
  const times = [];
  for (let i = 0; i < edits + 2; i++) {
    const adding = i % 2 === 0;
    const sent = performance.now();
    const seen = client.publications.length;
    await client.change(k, adding ? withLine : text);
    try {
      await client.waitFor(k, (d) => client.publications.length > seen && deprecated(d) === adding, 20000);
    } catch {
      return undefined;
    }
    // the first two (the JIT warming up on this tree) are left out
    if (i >= 2) times.push(client.publications.at(-1).at - sent);
  }
  return times;
}

/** The first resource file a kustomization names, or else the first one of the first base it names that has one. */
function firstResourceFile(kustomization, depth = 0) {
  const text = fs.readFileSync(kustomization, 'utf8');
  const block = /^resources:\s*\n((?:[ \t]*-.*\n?|[ \t]*#.*\n?)*)/m.exec(text)?.[1] ?? '';
  const entries = [...block.matchAll(/^[ \t]*-\s*['"]?([^'"#\s]+)/gm)].map((m) => path.join(path.dirname(kustomization), m[1]));
  const file = entries.find((f) => /\.ya?ml$/.test(f) && fs.existsSync(f) && fs.statSync(f).isFile());
  if (file || depth > 2) return file;
  for (const dir of entries.filter((d) => fs.existsSync(d) && fs.statSync(d).isDirectory())) {
    const base = kustomizationIn(dir);
    const found = base && firstResourceFile(base, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/**
 * Hovers on `file`: first on its first line holding a value (not blank, a comment or `---`) until
 * every root's records are made (a hover waits 300 ms at most for them, while they are made in the
 * background, and says when some roots are still to come: the time of those hovers, together, is
 * the first hover's), then on each of its first 40 lines (at the line's first character), warm:
 * nothing is left to make for them.
 */
async function hoverLatencies(client, file) {
  const pid = client.process.pid;
  const lines = fs.readFileSync(file, 'utf8').split('\n').slice(0, 40);
  const at = (line) => ({ line, character: Math.max(0, lines[line].length - lines[line].trimStart().length) });
  const valued = Math.max(0, lines.findIndex((l) => /^\s*[^\s#]/.test(l) && !/^---/.test(l)));
  const t0 = performance.now();
  while (/not shown yet/.test((await client.hover(uri(file), at(valued)))?.contents?.value ?? '')) {
    if (performance.now() - t0 > 120000) throw new Error(`${file}: records still not made after 120 s`);
  }
  const first = performance.now() - t0;
  const times = [];
  let answered = 0;
  const cpu = cpuMs(pid);
  for (const line of lines.keys()) {
    const t = performance.now();
    if (await client.hover(uri(file), at(line))) answered++;
    times.push(performance.now() - t);
  }
  return { first, times, answered, cpu: (cpuMs(pid) - cpu) / lines.length };
}

/** Where a patch body of a kustomization is: the first child of `spec:` in the first patch file it names, else in an inline patch of its own. */
function patchBodyPlace(kustomization) {
  const text = fs.readFileSync(kustomization, 'utf8');
  const named = [...text.matchAll(/^\s*-?\s*path:\s*['"]?([^'"#\s]+\.ya?ml)/gm), ...(/^patchesStrategicMerge:\s*\n((?:[ \t]*-.*\n?)*)/m.exec(text)?.[1] ?? '').matchAll(/^[ \t]*-\s*['"]?([^'"#\s|]+\.ya?ml)/gm)];
  for (const file of [...named.map((m) => path.join(path.dirname(kustomization), m[1])), kustomization]) {
    if (!fs.existsSync(file) || !fs.statSync(file).isFile()) continue;
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    const spec = lines.findIndex((l) => /^\s*spec:\s*$/.test(l));
    const indent = (l) => l.length - l.trimStart().length;
    const child = spec < 0 ? -1 : lines.findIndex((l, i) => i > spec && l.trim() !== '' && indent(l) > indent(lines[spec]));
    if (child > 0) return { file, position: { line: child, character: indent(lines[child]) } };
  }
  return undefined;
}

/** Completion at `position` of `file` 20 times: the first apart, the others warm; and how many items it offered. */
async function completionLatencies(client, file, position) {
  const times = [];
  let offered = 0;
  for (let i = 0; i < 21; i++) {
    const t = performance.now();
    offered = (await client.completion(uri(file), position)).length;
    times.push(performance.now() - t);
  }
  return { first: times[0], times: times.slice(1), offered };
}

/** Previews of the root of the open kustomization `file` (text `text`): the first, warm, and after an edit (ms); undefined when the root fails to build. */
async function previewLatencies(client, file, text) {
  const k = uri(file);
  const ask = async () => {
    const t = performance.now();
    const result = await client.request('kustomize/preview', { uri: k });
    return { ms: performance.now() - t, result };
  };
  const first = await ask();
  if (!('yaml' in first.result)) return undefined;
  const warm = [];
  for (let i = 0; i < 20; i++) warm.push((await ask()).ms);
  const withLine = `${text.endsWith('\n') || text === '' ? text : `${text}\n`}${EDIT_LINE}\n`;
  const edited = [];
  for (let i = 0; i < 6; i++) {
    await client.change(k, i % 2 === 0 ? withLine : text);
    edited.push((await ask()).ms);
  }
  return { first: first.ms, warm, edited, lines: first.result.yaml.split('\n').length - 1 };
}

/**
 * Definitions on `file`'s first 40 lines (at a list item's entry, else the line's first
 * character): a first pass (its slowest is the first's time: a patch target's makes the records
 * of the roots that read the file), then a second, warm; how many found a definition.
 */
async function definitionLatencies(client, file) {
  const lines = fs.readFileSync(file, 'utf8').split('\n').slice(0, 40);
  const at = (line) => {
    const indent = lines[line].length - lines[line].trimStart().length;
    return { line, character: indent + (lines[line].trimStart().startsWith('- ') ? 2 : 0) };
  };
  const ask = async (line) => {
    const t = performance.now();
    const found = await client.request('textDocument/definition', { textDocument: { uri: uri(file) }, position: at(line) });
    return { ms: performance.now() - t, found: (found ?? []).length > 0 };
  };
  let first = 0;
  for (const line of lines.keys()) first = Math.max(first, (await ask(line)).ms);
  const times = [];
  let answered = 0;
  for (const line of lines.keys()) {
    const { ms, found } = await ask(line);
    times.push(ms);
    if (found) answered++;
  }
  return { first, times, answered };
}

/** The real-world trees of the archive, extracted to a temporary directory, by project. */
function realWorld(work) {
  const archive = flag('--real-world', [path.join(REPO, 'bench', 'real-world', 'trees.tar.gz'), path.join(REPO, '..', 'shared', 'real-world', 'trees.tar.gz')].find((f) => fs.existsSync(f)) ?? '');
  if (!archive) return undefined;
  const dir = path.join(work, 'real-world');
  fs.mkdirSync(dir);
  const tar = spawnSync('tar', ['-xzf', archive, '-C', dir], { encoding: 'utf8' });
  if (tar.status !== 0) throw new Error(`cannot extract ${archive}: ${tar.stderr}`);
  const { trees } = JSON.parse(fs.readFileSync(path.join(dir, 'trees.json'), 'utf8'));
  const projects = new Map();
  for (const t of trees) {
    if (!projects.has(t.project)) projects.set(t.project, []);
    projects.get(t.project).push({ name: t.path ? `${t.project} ${t.path}` : t.project, dir: path.join(dir, t.project, t.path) });
  }
  return { dir, projects };
}

let missed = false;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'kts-lsp-bench-'));
try {
  console.log('### The language server (kustomize-ts lsp)\n');
  console.log(`Load average at the start: ${os.loadavg().map((l) => l.toFixed(1)).join(', ')} (1, 5, 15 minutes) on ${os.cpus().length} CPUs.\n`);
  const trees = realWorld(work);
  if (trees) {
    const rows = [];
    const failing = [];
    let projectRss = { mb: 0, project: '', roots: 0 };
    for (const [project, list] of trees.projects) {
      log(`lsp: ${project} (${list.length} trees)`);
      const client = await LspClient.start([uri(path.join(trees.dir, project))]);
      const roots = await client.settled(120000);
      for (const tree of list) {
        const file = kustomizationIn(tree.dir);
        if (!file) continue;
        const text = fs.readFileSync(file, 'utf8');
        await client.open(uri(file), text);
        const editCpu = cpuMs(client.process.pid);
        const edits = await editLatencies(client, file, text, EDITS);
        const editCpuMs = (cpuMs(client.process.pid) - editCpu) / (EDITS + 2);
        if (!edits) {
          failing.push(tree.name);
          await client.close(uri(file));
          continue;
        }
        const resource = firstResourceFile(file);
        const hovers = resource ? await hoverLatencies(client, resource) : undefined;
        const definitions = await definitionLatencies(client, file);
        const previews = await previewLatencies(client, file, text);
        // once every root is built and checked: a request waits behind the build or check running, which the edits measure
        await client.settled(120000);
        const keys = await completionLatencies(client, file, { line: 0, character: 0 });
        const body = patchBodyPlace(file);
        const patch = body && (await completionLatencies(client, body.file, body.position));
        rows.push({
          name: tree.name,
          roots: roots.length,
          edit50: percentile(edits, 50),
          edit95: percentile(edits, 95),
          hoverFirst: hovers?.first,
          hover95: hovers ? percentile(hovers.times, 95) : NaN,
          answered: hovers?.answered ?? 0,
          keys95: percentile(keys.times, 95),
          patchFirst: patch?.first ?? NaN,
          patch95: patch ? percentile(patch.times, 95) : NaN,
          patchOffered: patch?.offered ?? 0,
          previewFirst: previews?.first ?? NaN,
          preview95: previews ? percentile(previews.warm, 95) : NaN,
          previewEdited50: previews ? percentile(previews.edited, 50) : NaN,
          definitionFirst: definitions.first,
          definition95: percentile(definitions.times, 95),
          defined: definitions.answered,
          editCpu: editCpuMs,
          hoverCpu: hovers?.cpu ?? NaN,
        });
        await client.close(uri(file));
      }
      const rss = peakRssMb(client.process.pid);
      if (rss > projectRss.mb) projectRss = { mb: rss, project, roots: roots.length };
      await client.stop();
    }
    const measured = (key) => rows.filter((r) => Number.isFinite(r[key]));
    const worst = (key) => measured(key).reduce((a, b) => (a && a[key] >= b[key] ? a : b), undefined);
    const overEdit = rows.filter((r) => r.edit95 > GOALS.editMs);
    const overHover = rows.filter((r) => r.hover95 > GOALS.hoverMs);
    const overCompletion = rows.filter((r) => r.keys95 > GOALS.completionMs || r.patch95 > GOALS.completionMs);
    const overDefinition = rows.filter((r) => r.definition95 > GOALS.definitionMs);
    if (overEdit.length > 0 || overHover.length > 0 || overDefinition.length > 0 || overCompletion.length > 0) missed = true;
    console.log(`${rows.length} real-world trees (${trees.projects.size} projects, a server each, its folder the project), ${EDITS} unsaved edits each to the tree's kustomization file, hovers on the first 40 lines of its first resource file, definitions on the first 40 lines of its kustomization file:\n`);
    console.log('| what | median over the trees | highest (tree) | goal |');
    console.log('| --- | ---: | --- | ---: |');
    const cell = (key) => {
      const w = worst(key);
      return `${ms(percentile(measured(key).map((r) => r[key]), 50))} | ${w ? `${ms(w[key])} (${w.name})` : '—'}`;
    };
    console.log(`| an edit to its diagnostics published, p50 | ${cell('edit50')} | |`);
    console.log(`| an edit to its diagnostics published, p95 | ${cell('edit95')} | ≤ ${GOALS.editMs} ms |`);
    console.log(`| the first hover on a file, until every root's records are made | ${cell('hoverFirst')} | |`);
    console.log(`| a hover, warm, p95 | ${cell('hover95')} | ≤ ${GOALS.hoverMs} ms |`);
    console.log(`| the server's CPU time per edit (its mean over the tree's edits) | ${cell('editCpu')} | |`);
    console.log(`| the server's CPU time per warm hover (its mean) | ${cell('hoverCpu')} | |`);
    console.log(`| the slowest definition of the first pass over a kustomization file | ${cell('definitionFirst')} | |`);
    console.log(`| a definition, warm, p95 | ${cell('definition95')} | ≤ ${GOALS.definitionMs} ms |`);
    console.log(`| definitions found, of the lines asked, in all | ${rows.reduce((n, r) => n + r.defined, 0)} | |`);
    console.log(`| the first preview of its root (a build recording provenance) | ${cell('previewFirst')} | |`);
    console.log(`| a preview, warm (files unchanged), p95 | ${cell('preview95')} | |`);
    console.log(`| a preview just after an edit (its build, then one recording provenance), p50 | ${cell('previewEdited50')} | |`);
    console.log(`| completion at a kustomization key, warm, p95 | ${cell('keys95')} | ≤ ${GOALS.completionMs} ms |`);
    console.log(`| completion in a patch body, the first | ${cell('patchFirst')} | |`);
    console.log(`| completion in a patch body, warm, p95 (${measured('patch95').length} trees with a patch, ${measured('patch95').filter((r) => r.patchOffered > 0).length} offered fields) | ${cell('patch95')} | ≤ ${GOALS.completionMs} ms |`);
    console.log(`| peak RSS of a server, the highest | ${Math.round(projectRss.mb)} MB | ${projectRss.project}, ${projectRss.roots} roots | |`);
    console.log('');
    if (failing.length > 0) console.log(`Not measured (their roots fail to build without helm or the network, so the edit shows no warning): ${failing.join(', ')}.\n`);
    if (overEdit.length > 0) console.log(`**Over ${GOALS.editMs} ms at p95**: ${overEdit.map((r) => `${r.name} (${ms(r.edit95)})`).join(', ')}\n`);
    if (overHover.length > 0) console.log(`**Hover over ${GOALS.hoverMs} ms at p95**: ${overHover.map((r) => `${r.name} (${ms(r.hover95)})`).join(', ')}\n`);
    if (overDefinition.length > 0) console.log(`**Definition over ${GOALS.definitionMs} ms at p95**: ${overDefinition.map((r) => `${r.name} (${ms(r.definition95)})`).join(', ')}\n`);
    if (overCompletion.length > 0) console.log(`**Completion over ${GOALS.completionMs} ms at p95**: ${overCompletion.map((r) => `${r.name} (${ms(Math.max(r.keys95, r.patch95 || 0))})`).join(', ')}\n`);
  } else log('lsp: no real-world archive: the trees are left out');

  const repo = flag('--repo', '');
  if (repo) {
    const roots = findRoots(new DiskFileSystem(), path.resolve(repo));
    const middle = path.join(path.resolve(repo), roots[Math.floor(roots.length / 2)]);
    const file = kustomizationIn(middle);
    log(`lsp: ${repo}: ${roots.length} roots, opening ${path.relative(repo, file)}`);
    const text = fs.readFileSync(file, 'utf8');
    const start = performance.now();
    const client = await LspClient.start([uri(path.resolve(repo))]);
    await client.open(uri(file), text);
    await client.waitFor(uri(file), () => true, 60000);
    const first = client.publications.find((p) => p.uri === uri(file)).at - start;
    const all = await client.settled(120000);
    const settled = performance.now() - start;
    const edits = await editLatencies(client, file, text, EDITS);
    const resource = firstResourceFile(file);
    const hovers = resource ? await hoverLatencies(client, resource) : undefined;
    const rss = peakRssMb(client.process.pid);
    await client.stop();
    if (first > GOALS.firstMs || rss > GOALS.rssMb || (edits && percentile(edits, 95) > GOALS.editMs)) missed = true;
    console.log(`A repository of ${all.length} roots (${path.basename(path.resolve(repo))}), a file opened at once (${path.relative(repo, file)}):\n`);
    console.log('| what | measured | goal |');
    console.log('| --- | ---: | ---: |');
    console.log(`| from starting the server to the opened file's first diagnostics | ${ms(first)} | ≤ ${GOALS.firstMs} ms |`);
    console.log(`| to every root built and validated | ${ms(settled)} | |`);
    console.log(`| peak RSS | ${Math.round(rss)} MB | ≤ ${GOALS.rssMb} MB |`);
    console.log(`| an edit to its diagnostics published, p50 / p95 | ${edits ? `${ms(percentile(edits, 50))} / ${ms(percentile(edits, 95))}` : 'its root fails to build'} | ≤ ${GOALS.editMs} ms |`);
    if (hovers) console.log(`| hover: the first / warm p95 | ${ms(hovers.first)} / ${ms(percentile(hovers.times, 95))} | ≤ ${GOALS.hoverMs} ms |`);
    if (hovers) console.log(`| the server's CPU time per warm hover | ${ms(hovers.cpu)} | |`);
    console.log('');
  }
  console.log(`Load average at the end: ${os.loadavg().map((l) => l.toFixed(1)).join(', ')}.\n`);
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
if (missed) {
  console.log('**A GOAL IS MISSED**\n');
  process.exitCode = 1;
}
