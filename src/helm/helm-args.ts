import { join } from '../fs/path.js';
import { absChartHome, type ResolvedHelmChart } from './chart-config.js';

/** The directory of the chart itself. */
export function chartDir(c: ResolvedHelmChart): string {
  return join(absChartHome(c, c.root), c.name);
}

/**
 * The arguments of kustomize's `helm template` (`HelmChart.AsHelmArgs`), in its order:
 * namespace, name template, the values file kustomize wrote and the additional ones, API
 * versions, kube version, the switches, then release name (or `--generate-name`) and chart
 * directory. Unlike kustomize, the positional arguments follow `--`, so none of them can be
 * read as a flag (a `releaseName: --post-renderer=...` stays a release name); a flag's value
 * is the next argument whatever it looks like.
 */
export function templateArgs(c: ResolvedHelmChart, valuesFile: string): string[] {
  const args = ['template'];
  if (c.namespace) args.push('--namespace', c.namespace);
  if (c.nameTemplate) args.push('--name-template', c.nameTemplate);
  if (valuesFile) args.push('-f', valuesFile);
  for (const f of c.additionalValuesFiles) args.push('-f', f);
  for (const v of c.renderApiVersions()) args.push('--api-versions', v);
  if (c.kubeVersion) args.push('--kube-version', c.kubeVersion);
  if (c.includeCRDs) args.push('--include-crds');
  if (c.skipTests) args.push('--skip-tests');
  if (c.skipHooks) args.push('--no-hooks');
  if (c.debug) args.push('--debug');
  if (c.devel) args.push('--devel');
  if (!c.releaseName) args.push('--generate-name');
  args.push('--');
  if (c.releaseName) args.push(c.releaseName);
  args.push(chartDir(c));
  return args;
}

/**
 * kustomize's `helm pull`, of the archive into `dir` (the build unpacks it into the chart home
 * itself, keeping the archive); an `oci://` repository names the chart by URL, any other is
 * passed as `--repo`. The chart follows `--`, as in {@link templateArgs}.
 */
export function pullArgs(c: ResolvedHelmChart, dir: string): string[] {
  const args = ['pull', '--destination', dir];
  const repo = c.repo ?? '';
  if (repo !== '' && !repo.startsWith('oci://')) args.push('--repo', repo);
  if (c.version) args.push('--version', c.version);
  if (c.devel) args.push('--devel');
  args.push('--', repo.startsWith('oci://') ? `${repo.replace(/\/$/, '')}/${c.name}` : c.name);
  return args;
}
