import { KustomizeError } from '../errors.js';
import { outputTooLargeReason, runProcess, type ProcessRequest, type ProcessResult } from '../process/run-process.js';

/**
 * Runs helm as kustomize does: the build's environment plus HELM_CONFIG_HOME, HELM_CACHE_HOME
 * (`<configHome>/.cache`) and HELM_DATA_HOME (`<configHome>/.data`), in the working directory
 * of the build, stopped after the plugin timeout. A failure reads like kustomize's: helm's
 * stderr (with `--debug`: also what it printed), then the command, its environment and why.
 */
export class HelmCommand {
  private readonly env: [string, string][];

  constructor(
    readonly command: string,
    configHome: string,
    private readonly timeout: number,
    /** where helm runs (kustomize's own working directory): relative paths in the command and homes start there */
    private readonly cwd: string,
    /** kills helm when it aborts */
    private readonly signal?: AbortSignal,
  ) {
    this.env = [
      ['HELM_CONFIG_HOME', configHome],
      ['HELM_CACHE_HOME', `${configHome}/.cache`],
      ['HELM_DATA_HOME', `${configHome}/.data`],
    ];
  }

  /** helm's stdout; a KustomizeError (PLUGIN_FAILED) when it cannot start, fails or times out, ABORTED when stopped. */
  async run(args: string[]): Promise<string> {
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const [k, v] of this.env) env[k] = v;
    const request: ProcessRequest = { argv: [this.command, ...args], cwd: this.cwd, env, timeout: this.timeout, signal: this.signal };
    let result: ProcessResult;
    try {
      result = await runProcess(request);
    } catch (e) {
      // ABORTED stays what it is
      if (e instanceof KustomizeError) throw e;
      throw this.failure(args, startError(this.command, e as NodeJS.ErrnoException), '');
    }
    const output = args.includes('--debug') ? ` Helm stack trace:\n${result.stderr}\nHelm template:\n${result.stdout}\n` : result.stderr;
    if (result.timedOut) throw this.failure(args, `stopped after the plugin timeout of ${this.timeout}s`, output);
    if (result.outputTooLarge) throw this.failure(args, outputTooLargeReason(request), output);
    if (result.code !== 0) throw this.failure(args, result.code === null ? `signal: ${signalName(result.signal)}` : `exit status ${result.code}`, output);
    return result.stdout;
  }

  /**
   * kustomize's check that this is helm 3 (kustomize v5.6 asks `helm version -c --short` and
   * wants major version 3; this accepts 4 too, and asks without `-c`, which helm 4 refuses,
   * as kustomize does since).
   */
  async checkVersion(): Promise<void> {
    const stdout = await this.run(['version', '--short']);
    let v = /v?\d+(\.\d+)+/.exec(stdout)?.[0];
    if (!v) throw new KustomizeError('PLUGIN_FAILED', `cannot find version string in ${stdout}`);
    if (v.startsWith('v')) v = v.slice(1);
    const major = v.split('.')[0];
    if (major !== '3' && major !== '4') throw new KustomizeError('PLUGIN_FAILED', `this plugin requires helm V3 or V4 but got v${v}`);
  }

  private failure(args: string[], reason: string, output: string): KustomizeError {
    const env = this.env.map(([k, v]) => `${k}=${v}`).join(' ');
    const message = `unable to run: '${[this.command, ...args].join(' ')}' with env=[${env}] (is '${this.command}' installed?): ${reason}`;
    return new KustomizeError('PLUGIN_FAILED', output ? `${output}: ${message}` : message);
  }
}

/** Why a process did not start, as Go's os/exec words it. */
function startError(command: string, e: NodeJS.ErrnoException): string {
  const lookedUp = !command.includes('/');
  if (e.code === 'ENOENT') return lookedUp ? `exec: "${command}": executable file not found in $PATH` : `fork/exec ${command}: no such file or directory`;
  if (e.code === 'EACCES') return lookedUp ? `exec: "${command}": executable file not found in $PATH` : `fork/exec ${command}: permission denied`;
  return e.message;
}

const SIGNAL_NAMES: Partial<Record<NodeJS.Signals, string>> = {
  SIGKILL: 'killed',
  SIGTERM: 'terminated',
  SIGINT: 'interrupt',
  SIGSEGV: 'segmentation fault',
  SIGABRT: 'aborted',
  SIGHUP: 'hangup',
  SIGPIPE: 'broken pipe',
};

function signalName(s: NodeJS.Signals | null): string {
  return (s && SIGNAL_NAMES[s]) ?? s ?? 'unknown';
}
