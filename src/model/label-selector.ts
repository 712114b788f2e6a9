import { KustomizeError } from '../errors.js';

/**
 * Kubernetes label selector syntax, as `kubectl -l` and kustomize's `labelSelector` accept:
 * `a=b`, `a==b`, `a!=b`, `a in (x,y)`, `a notin (x)`, `a`, `!a`, comma-separated (all must hold).
 */
export type LabelRequirement =
  | { key: string; op: 'in' | 'notin'; values: string[] }
  | { key: string; op: 'exists' | 'notexists' };

export function parseLabelSelector(selector: string): LabelRequirement[] {
  const out: LabelRequirement[] = [];
  for (const part of splitTopLevel(selector)) {
    const s = part.trim();
    if (s === '') continue;
    let m: RegExpExecArray | null;
    if ((m = /^!\s*([^\s!=(),]+)$/.exec(s))) out.push({ key: m[1]!, op: 'notexists' });
    else if ((m = /^([^\s!=(),]+)\s*(==|=|!=)\s*([^\s!=(),]*)$/.exec(s))) {
      out.push({ key: m[1]!, op: m[2] === '!=' ? 'notin' : 'in', values: [m[3]!] });
    } else if ((m = /^([^\s!=(),]+)\s+(in|notin)\s*\(([^()]*)\)$/.exec(s))) {
      out.push({ key: m[1]!, op: m[2] as 'in' | 'notin', values: m[3]!.split(',').map((v) => v.trim()) });
    } else if ((m = /^([^\s!=(),]+)$/.exec(s))) out.push({ key: m[1]!, op: 'exists' });
    else throw new KustomizeError('KUSTOMIZATION_INVALID', `unable to parse requirement: found '${s}', invalid label selector`);
  }
  return out;
}

export function labelsMatch(requirements: LabelRequirement[], labels: Record<string, unknown> | undefined): boolean {
  return requirements.every((r) => {
    const has = labels !== undefined && Object.prototype.hasOwnProperty.call(labels, r.key);
    const value = has ? String(labels![r.key]) : undefined;
    switch (r.op) {
      case 'exists':
        return has;
      case 'notexists':
        return !has;
      case 'in':
        return has && r.values.includes(value!);
      case 'notin':
        return !has || !r.values.includes(value!);
    }
  });
}

/** Splits on commas that are not inside parentheses. */
function splitTopLevel(s: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '(') depth++;
    else if (s[i] === ')') depth--;
    else if (s[i] === ',' && depth === 0) {
      parts.push(s.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(s.slice(start));
  return parts;
}
