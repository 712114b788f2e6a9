/**
 * `--helm-api-versions` as kustomize really applies it, a kept quirk (seen with kubectl v1.33,
 * kustomize v5.6.0). kustomize gives every chart the flag's Go slice before it reads the
 * chart's own config over it, and reading `apiVersions` into that slice writes into the flag's
 * backing array, which every chart configured so far still shares. So with the flag given,
 * a chart that sets `apiVersions` changes what the charts configured before it (in the whole
 * build: the array is global) render with:
 *
 * - a chart without `apiVersions` renders with the flag's first n entries of the shared array
 *   (n = number of flag values), as they are when it runs;
 * - a chart with m entries writes them into the shared array (as far as its capacity, the
 *   next power of two ≥ n, goes); with m ≤ capacity its own view is that array too.
 *
 * Without the flag, every chart simply has its own `apiVersions`.
 */
export class ApiVersionsFlag {
  private readonly backing: string[];

  constructor(private readonly values: readonly string[]) {
    const cap = values.length === 0 ? 0 : 2 ** Math.ceil(Math.log2(values.length));
    this.backing = [...values, ...new Array<string>(cap - values.length).fill('')];
  }

  /** Configures one chart: what its API versions will be when it renders (read then, not now). */
  configure(own: readonly string[] | undefined): () => string[] {
    const n = this.values.length;
    if (n === 0) {
      const fixed = [...(own ?? [])];
      return () => fixed;
    }
    if (!own || own.length === 0) return () => this.backing.slice(0, n);
    const cap = this.backing.length;
    for (let i = 0; i < Math.min(own.length, cap); i++) this.backing[i] = own[i]!;
    if (own.length <= cap) {
      const m = own.length;
      return () => this.backing.slice(0, m);
    }
    const fixed = [...own];
    return () => fixed;
  }
}
