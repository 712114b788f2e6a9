// `kustomize-ts diff` compared with kubectl: the ground truth made from `kubectl kustomize`'s
// renders of every root at two revisions, each on a checkout of its revision, and kustomize-ts
// diff's JSON report, each as a set of lines (root, status) and (root, resource id, change), for
// diff-vs-kubectl.mjs and the repository section of report.mjs. The rules are in
// diff-vs-kubectl.mjs's header.

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse, parseAllDocuments } from 'yaml';

const KUSTOMIZATION_FILES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];
const NEVER_SEARCHED = new Set(['.git', 'node_modules']);

/** A checkout of `sha` of the repository `repo`, made in `scratch` for the purpose (a detached `git worktree`), given to `work` and removed after. */
export async function withCheckout(repo, sha, scratch, work) {
  const checkout = path.join(scratch, sha);
  git(repo, 'worktree', 'add', '--detach', '--force', checkout, sha);
  try {
    return await work(checkout);
  } finally {
    git(repo, 'worktree', 'remove', '--force', checkout);
  }
}

/** Runs git in `cwd`: its output, trimmed. */
export function git(cwd, ...args) {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
}

/** The kustomization roots of a checkout, relative to it (`.` for the top), in path order. */
export function findRoots(top) {
  const roots = [];
  const visit = (rel) => {
    const abs = rel === '.' ? top : path.join(top, rel);
    const entries = fs.readdirSync(abs, { withFileTypes: true });
    if (isRoot(abs, entries)) roots.push(rel);
    for (const e of entries) {
      // a symbolic link is a Dirent of its own type: directory links are not followed
      if (e.isDirectory() && !NEVER_SEARCHED.has(e.name)) visit(rel === '.' ? e.name : `${rel}/${e.name}`);
    }
  };
  visit('.');
  return roots.sort((a, b) => (a === b ? 0 : a === '.' ? -1 : b === '.' ? 1 : a < b ? -1 : 1));
}

/** Whether a directory (its entries given) holds a kustomization whose kind is not Component: kubectl builds it, or says why not. */
function isRoot(abs, entries) {
  const names = entries.filter((e) => KUSTOMIZATION_FILES.includes(e.name) && !e.isDirectory()).map((e) => e.name);
  if (names.length !== 1) return names.length > 1;
  try {
    const doc = parseAllDocuments(fs.readFileSync(path.join(abs, names[0]), 'utf8'))[0]?.toJS();
    return doc?.kind !== 'Component';
  } catch {
    return true;
  }
}

/** A kubectl output cut into its documents, by id: `apiVersion|kind|namespace|name` → the document's text. */
function documentsById(yaml, where) {
  const byId = new Map();
  if (yaml === '') return byId;
  const texts = yaml.split(/^---\n/m);
  const parsed = parseAllDocuments(yaml);
  if (parsed.length !== texts.length) throw new Error(`${where}: ${parsed.length} documents parsed, ${texts.length} cut at ---`);
  for (const text of texts) {
    const doc = parse(text) ?? {};
    const meta = doc.metadata ?? {};
    const id = [doc.apiVersion, doc.kind, meta.namespace, meta.name].map((v) => (v === undefined || v === null ? '' : String(v))).join('|');
    if (byId.has(id)) throw new Error(`${where}: two documents with the id ${id}`);
    byId.set(id, text);
  }
  return byId;
}

/**
 * The ground truth of a pair, from kubectl's renders of each revision (`{ roots: { [root]: { ok,
 * yaml } } }`): the set of root and resource lines, and the roots kubectl fails at both.
 */
export function expectedChanges(base, head) {
  const lines = new Set();
  const failingBoth = new Set();
  const resources = (root, r, change) => {
    if (!r.ok) return;
    for (const id of documentsById(r.yaml, root).keys()) lines.add(`${root}\t${id}\t${change}`);
  };
  for (const root of new Set([...Object.keys(base.roots), ...Object.keys(head.roots)])) {
    const [b, h] = [base.roots[root], head.roots[root]];
    if (!b || !h) {
      lines.add(`${root}\t${b ? 'removed' : 'added'}`);
      resources(root, b ?? h, b ? 'removed' : 'added');
    } else if (!b.ok || !h.ok) {
      if (b.ok || h.ok) lines.add(`${root}\terror`);
      else failingBoth.add(root);
    } else if (b.yaml !== h.yaml) {
      const [before, after] = [documentsById(b.yaml, `${root} at the base`), documentsById(h.yaml, `${root} at the head`)];
      let changed = false;
      for (const id of new Set([...before.keys(), ...after.keys()])) {
        const change = !before.has(id) ? 'added' : !after.has(id) ? 'removed' : before.get(id) !== after.get(id) ? 'changed' : undefined;
        if (change) {
          lines.add(`${root}\t${id}\t${change}`);
          changed = true;
        }
      }
      if (changed) lines.add(`${root}\tchanged`);
    }
  }
  return { lines, failingBoth };
}

/** kustomize-ts diff's report as the same lines. */
export function reportedChanges(report) {
  const lines = new Set();
  for (const root of report.roots) {
    lines.add(`${root.path}\t${root.status}`);
    for (const r of root.resources) lines.add(`${root.path}\t${[r.apiVersion, r.kind, r.namespace, r.name].join('|')}\t${r.change}`);
  }
  return lines;
}
