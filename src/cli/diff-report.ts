import type { ResourceChange, RevisionsDiff, RootDiff } from '../build/diff.js';

/** GitHub refuses a comment of more than 65,536 characters: the markdown report stays below, with room for a note. */
const COMMENT_LIMIT = 60_000;

/** How many characters of one root's diff the markdown report shows before cutting it. */
const ROOT_LIMIT = 12_000;

const short = (commit: string) => (commit === 'worktree' ? 'the work tree' : commit.slice(0, 12));

/** The id of a resource as the reports name it: `apps/v1 Deployment shop/web`. */
function resourceName(r: ResourceChange): string {
  return `${r.apiVersion} ${r.kind} ${r.namespace ? `${r.namespace}/` : ''}${r.name}`;
}

/** A resource's path in a git-like header: `<root>/<apiVersion>/<Kind>/<namespace>/<name>`. */
function resourcePath(root: string, r: ResourceChange): string {
  return [root === '.' ? '' : root, r.apiVersion, r.kind, r.namespace, r.name].filter((p) => p !== '').join('/');
}

function errorLine(root: RootDiff): string {
  const e = root.error!;
  return `error at the ${e.side}: ${e.message}${e.file ? ` (${e.file})` : ''}`;
}

/** The lines of one resource's change as git prints a file's: header, `---`/`+++`, the hunks. */
function resourceDiff(root: string, r: ResourceChange): string {
  const path = resourcePath(root, r);
  const from = r.change === 'added' ? '/dev/null' : `a/${path}`;
  const to = r.change === 'removed' ? '/dev/null' : `b/${path}`;
  return `diff --kustomize ${root}: ${resourceName(r)} (${r.change})\n--- ${from}\n+++ ${to}\n${r.diff}`;
}

/** Colors for a terminal: headers bold, hunk lines cyan, removed lines red, added lines green. */
function colored(text: string): string {
  return text
    .split('\n')
    .map((line) => {
      if (/^(diff --kustomize|--- |\+\+\+ |=== )/.test(line)) return `\x1b[1m${line}\x1b[0m`;
      if (line.startsWith('@@')) return `\x1b[36m${line}\x1b[0m`;
      if (line.startsWith('-')) return `\x1b[31m${line}\x1b[0m`;
      if (line.startsWith('+')) return `\x1b[32m${line}\x1b[0m`;
      return line;
    })
    .join('\n');
}

/** `--format text`: git diff's look, a `===` line per root, colored when `color`. */
export function textReport(diff: RevisionsDiff, color: boolean): string {
  let out = '';
  for (const root of diff.roots) {
    out += `=== ${root.path} (${root.status})${root.error ? `: ${errorLine(root)}` : ''}\n`;
    for (const r of root.resources) out += resourceDiff(root.path, r);
  }
  return color ? colored(out) : out;
}

/** `--format json`: the library's structure. */
export function jsonReport(diff: RevisionsDiff): string {
  return `${JSON.stringify(diff, null, 2)}\n`;
}

/**
 * `--format markdown`, for a pull-request comment: a summary table, then a collapsible section
 * per root with its diff. Kept under a comment's size limit: a long root's diff is cut, and
 * roots past the limit are listed in the table but not shown, both said where they are.
 */
export function markdownReport(diff: RevisionsDiff): string {
  const head = `### Rendered manifests: ${short(diff.base)} → ${short(diff.head)}\n\n`;
  if (diff.roots.length === 0) return `${head}No kustomization's output changed.\n`;
  const count = (root: RootDiff, change: ResourceChange['change']) => root.resources.filter((r) => r.change === change).length;
  let table = `${diff.roots.length} root${diff.roots.length === 1 ? '' : 's'} changed.\n\n| root | status | added | changed | removed |\n| --- | --- | ---: | ---: | ---: |\n`;
  for (const root of diff.roots) table += `| \`${root.path}\` | ${root.status} | ${count(root, 'added')} | ${count(root, 'changed')} | ${count(root, 'removed')} |\n`;
  let sections = '';
  let shown = 0;
  for (const root of diff.roots) {
    const section = rootSection(root);
    if (head.length + table.length + sections.length + section.length > COMMENT_LIMIT) break;
    sections += section;
    shown++;
  }
  const left = diff.roots.length - shown;
  const note = left > 0 ? `\n_${left} more root${left === 1 ? ' is' : 's are'} in the table but not shown: the comment would pass GitHub's size limit. The job's log has the whole diff (\`--format text\`)._\n` : '';
  return `${head}${table}\n${sections}${note}`;
}

function rootSection(root: RootDiff): string {
  const summary = `<code>${escapeHtml(root.path)}</code>: ${root.status}${root.error ? `, ${escapeHtml(errorLine(root))}` : `, ${root.resources.length} resource${root.resources.length === 1 ? '' : 's'}`}`;
  let body = root.resources.map((r) => resourceDiff(root.path, r)).join('');
  let cut = '';
  if (body.length > ROOT_LIMIT) {
    body = body.slice(0, body.lastIndexOf('\n', ROOT_LIMIT) + 1);
    const names = root.resources.map(resourceName);
    cut = `\n_The diff of this root was cut at ${ROOT_LIMIT.toLocaleString('en')} characters; its resources: ${names.map((n) => `\`${n}\``).join(', ')}._\n`;
  }
  const fence = body.includes('```') ? '~~~~' : '```';
  const code = body === '' ? '' : `\n${fence}diff\n${body}${fence}\n`;
  return `<details><summary>${summary}</summary>\n${code}${cut}\n</details>\n\n`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
}
