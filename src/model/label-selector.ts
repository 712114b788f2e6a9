import { KustomizeError } from '../errors.js';

/**
 * Kubernetes label selector syntax, as `kubectl -l` and kustomize's `labelSelector` accept:
 * `a=b`, `a==b`, `a!=b`, `a in (x,y)`, `a notin (x)`, `a`, `!a`, `a>1`, `a<1`, comma-separated
 * (all must hold). Syntax errors carry the Kubernetes parser's wording.
 */
export type LabelRequirement =
  | { key: string; op: 'in' | 'notin'; values: string[] }
  | { key: string; op: 'exists' | 'notexists' }
  | { key: string; op: 'gt' | 'lt'; value: number };

export function parseLabelSelector(selector: string): LabelRequirement[] {
  return new SelectorParser(tokenize(selector)).parse();
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
      case 'gt':
      case 'lt': {
        if (!has || !/^-?\d+$/.test(value!)) return false;
        return r.op === 'gt' ? Number(value) > r.value : Number(value) < r.value;
      }
    }
  });
}

type TokenType = 'id' | '!' | '=' | '==' | '!=' | '>' | '<' | '(' | ')' | ',' | 'in' | 'notin' | 'end';
interface Token {
  type: TokenType;
  text: string;
}

const SPECIAL = new Set(['!', '=', '>', '<', '(', ')', ',']);

function tokenize(s: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < s.length) {
    const c = s[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (SPECIAL.has(c)) {
      const two = s.slice(i, i + 2);
      if (two === '==' || two === '!=') {
        out.push({ type: two, text: two });
        i += 2;
      } else {
        out.push({ type: c as TokenType, text: c });
        i++;
      }
      continue;
    }
    let j = i;
    while (j < s.length && !SPECIAL.has(s[j]!) && !/\s/.test(s[j]!)) j++;
    const word = s.slice(i, j);
    out.push({ type: word === 'in' || word === 'notin' ? word : 'id', text: word });
    i = j;
  }
  out.push({ type: 'end', text: '' });
  return out;
}

const BINARY_OPERATORS = "'=', '!=', '==', 'in', notin'";

class SelectorParser {
  private pos = 0;

  constructor(private readonly tokens: Token[]) {}

  /** The next token; in value position the words `in`/`notin` are plain identifiers. */
  private peek(asValue = true): Token {
    const t = this.tokens[this.pos]!;
    return asValue && (t.type === 'in' || t.type === 'notin') ? { type: 'id', text: t.text } : t;
  }

  private next(asValue = true): Token {
    const t = this.peek(asValue);
    this.pos++;
    return t;
  }

  parse(): LabelRequirement[] {
    const out: LabelRequirement[] = [];
    for (;;) {
      const t = this.peek();
      if (t.type === 'end') return out;
      if (t.type !== 'id' && t.type !== '!') throw fail(`found '${t.text}', expected: !, identifier, or 'end of string'`);
      try {
        out.push(this.requirement());
      } catch (e) {
        throw fail(`unable to parse requirement: ${(e as Error).message}`);
      }
      const after = this.next();
      if (after.type === 'end') return out;
      if (after.type !== ',') throw fail(`found '${after.text}', expected: ',' or 'end of string'`);
      const following = this.peek();
      if (following.type !== 'id' && following.type !== '!') throw fail(`found '${following.text}', expected: identifier after ','`);
    }
  }

  private requirement(): LabelRequirement {
    let negated = false;
    let t = this.next();
    if (t.type === '!') {
      negated = true;
      t = this.next();
    }
    if (t.type !== 'id') throw fail(`found '${t.text}', expected: identifier`);
    const key = t.text;
    const after = this.peek();
    if (after.type === 'end' || after.type === ',') return { key, op: negated ? 'notexists' : 'exists' };
    const op = this.next(false);
    switch (op.type) {
      case 'in':
      case 'notin':
        return { key, op: op.type, values: this.valueList() };
      case '=':
      case '==':
      case '!=':
        return { key, op: op.type === '!=' ? 'notin' : 'in', values: [this.exactValue()] };
      case '>':
      case '<': {
        const v = this.exactValue();
        if (!/^-?\d+$/.test(v)) throw fail(`for 'Gt', 'Lt' operators, the value must be an integer`);
        return { key, op: op.type === '>' ? 'gt' : 'lt', value: Number(v) };
      }
      default:
        throw fail(`found '${op.text}', expected: ${BINARY_OPERATORS}`);
    }
  }

  private exactValue(): string {
    const t = this.peek();
    if (t.type === 'end' || t.type === ',') return '';
    this.pos++;
    if (t.type !== 'id') throw fail(`found '${t.text}', expected: identifier`);
    return t.text;
  }

  private valueList(): string[] {
    const open = this.next();
    if (open.type !== '(') throw fail(`found '${open.text}' expected: '('`);
    const values = new Set<string>();
    const first = this.peek();
    if (first.type === ')') {
      this.pos++;
      return [''];
    }
    if (first.type !== 'id' && first.type !== ',') throw fail(`found '${first.text}', expected: ',', ')' or identifier`);
    for (;;) {
      const t = this.next();
      if (t.type === 'id') {
        values.add(t.text);
        const sep = this.peek();
        if (sep.type === ')') break;
        if (sep.type !== ',') throw fail(`found '${sep.text}', expected: ',' or ')'`);
      } else if (t.type === ',') {
        if (values.size === 0) values.add('');
        const sep = this.peek();
        if (sep.type === ')') {
          values.add('');
          break;
        }
        if (sep.type === ',') {
          this.pos++;
          values.add('');
        }
      } else throw fail(`found '${t.text}', expected: ',', or identifier`);
    }
    this.pos++;
    return [...values];
  }
}

function fail(message: string): KustomizeError {
  return new KustomizeError('KUSTOMIZATION_INVALID', message);
}
