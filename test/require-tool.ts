/**
 * What some tests need from the machine, beyond Node and git: podman, helm, the reference
 * kubectl, strace, a registry, chromium, neovim, the VS Code extension's packages, the language
 * server and the corpora in ../shared. `requireTool` finds one. When it
 * is missing, the tests that need it are skipped, loudly (a `# SKIPPING` line on stderr, saying
 * how to get it); with KUSTOMIZE_TS_REQUIRE_<TOOL>=1, or KUSTOMIZE_TS_REQUIRE_ALL=1 (as .ci/run
 * sets), a missing tool fails the test file instead, so that CI cannot pass by skipping.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** The corpora shared by the projects: ../shared beside the checkout, or beside the parent of a worktree inside it. */
const SHARED = [join(REPO, '..', 'shared'), join(REPO, '..', '..', 'shared')].find((d) => existsSync(d)) ?? join(REPO, '..', 'shared');

/** starlark-go's test scripts (test/starlark/corpus.ts runs them) */
export const STARLARK_CORPUS = join(SHARED, 'starlark-conformance', 'testdata');

/** the Kubernetes OpenAPI document scripts/compact-openapi.mjs compacts */
const OPENAPI_DOCUMENT = join(SHARED, 'openapi', 'kubernetes-openapi-v1.21.2.json.gz');

interface ToolSpec {
  /** KUSTOMIZE_TS_REQUIRE_<this>=1 requires it */
  readonly env: string;
  /** what it is, in the messages */
  readonly what: string;
  /** how to get it */
  readonly install: string;
  /** where it is, or undefined when it is missing */
  find(): string | undefined;
}

function executable(path: string | undefined): string | undefined {
  if (!path) return undefined;
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile() ? path : undefined;
  } catch {
    return undefined;
  }
}

function onPath(command: string): string | undefined {
  return (process.env['PATH'] ?? '').split(delimiter).map((dir) => executable(join(dir, command))).find((path) => path !== undefined);
}

function existing(path: string): string | undefined {
  return existsSync(path) ? path : undefined;
}

/** the launcher of this checkout's CLI, built by `npm run build` (as `npm test` runs it) */
const CLI = join(REPO, 'bin', 'kustomize-ts.js');

/** the launcher, when the CLI has the `lsp` command: the server the editor tests start */
const findLanguageServer = (): string | undefined => (spawnSync(process.execPath, [CLI, 'help', 'lsp'], { stdio: 'ignore' }).status === 0 ? CLI : undefined);

/** helm: $KUSTOMIZE_TS_HELM, else where scripts/setup-helm.sh puts it */
const findHelm = (): string | undefined => executable(process.env['KUSTOMIZE_TS_HELM']) ?? executable(join(REPO, '.cache/helm/helm/helm'));

/** A program scripts/setup-helm.sh installs with helm: `<dir>/helm/helm` beside `<dir>/kubectl/kubectl`. */
function besideHelm(path: string): string | undefined {
  const helm = findHelm();
  return helm && executable(join(dirname(dirname(helm)), path));
}

const TOOLS = {
  podman: { env: 'CONTAINERS', what: 'podman', install: 'run scripts/setup-containers.sh (as root)', find: () => onPath('podman') },
  helm: { env: 'HELM', what: 'helm', install: 'run scripts/setup-helm.sh (or set KUSTOMIZE_TS_HELM)', find: findHelm },
  kubectl: {
    env: 'KUBECTL',
    what: 'the reference kubectl (v1.33, kustomize v5.6)',
    install: 'run scripts/setup-helm.sh (or set KUSTOMIZE_TS_KUBECTL)',
    find: () => executable(process.env['KUSTOMIZE_TS_KUBECTL']) ?? besideHelm('kubectl/kubectl'),
  },
  strace: { env: 'STRACE', what: 'strace', install: 'run scripts/setup-strace.sh (as root)', find: () => onPath('strace') },
  registry: { env: 'REGISTRY', what: 'docker-registry', install: 'run scripts/setup-registry.sh (as root)', find: () => onPath('docker-registry') },
  neovim: { env: 'NEOVIM', what: 'neovim (nvim)', install: 'run scripts/setup-neovim.sh (as root)', find: () => onPath('nvim') },
  'vscode-extension': {
    env: 'VSCODE_EXTENSION',
    what: "the VS Code extension's packages (editors/vscode/node_modules)",
    install: 'run npm ci in editors/vscode',
    find: () => existing(join(REPO, 'editors', 'vscode', 'node_modules', '.bin', 'vsce')),
  },
  'language-server': {
    env: 'LANGUAGE_SERVER',
    what: 'the language server (`kustomize-ts lsp`)',
    install: 'npm run build, in a checkout whose CLI has the lsp command',
    find: findLanguageServer,
  },
  chromium: { env: 'BROWSER', what: 'chromium', install: 'run scripts/setup-chromium.sh (as root; or set KUSTOMIZE_TS_CHROMIUM)', find: () => executable(process.env['KUSTOMIZE_TS_CHROMIUM']) ?? onPath('chromium') },
  'starlark-corpus': {
    env: 'STARLARK_CORPUS',
    what: `the Starlark conformance corpus (${STARLARK_CORPUS})`,
    install: "put starlark-go's test scripts in ../shared/starlark-conformance, next to the checkout",
    find: () => existing(STARLARK_CORPUS),
  },
  'openapi-data': {
    env: 'OPENAPI_DATA',
    what: `the Kubernetes OpenAPI document (${OPENAPI_DOCUMENT})`,
    install: 'put it in ../shared/openapi, next to the checkout',
    find: () => existing(OPENAPI_DOCUMENT),
  },
} satisfies Record<string, ToolSpec>;

export type ToolName = keyof typeof TOOLS;

/** A tool some tests need, found or not. */
export class Tool {
  constructor(
    /** the `skip` option of the tests that need it: false when it is here, else why it is not */
    readonly skip: string | false,
    private readonly found: string | undefined,
  ) {}

  /** Where it is: a skipped test never asks, so a test that does finds it (or fails saying so). */
  get path(): string {
    if (this.found === undefined) throw new Error(`asked where a missing tool is: ${this.skip}`);
    return this.found;
  }
}

/**
 * Finds a tool. Missing, it writes one `# SKIPPING` line and returns a Tool whose `skip` says
 * why, or throws when the tool is required. Ask once a tool in a test file, at its top level
 * (or in a helper module it imports): each test file runs in a process of its own, so each line
 * is written once.
 */
export function requireTool(name: ToolName): Tool {
  const tool: ToolSpec = TOOLS[name];
  const found = tool.find();
  if (found !== undefined) return new Tool(false, found);
  const variable = `KUSTOMIZE_TS_REQUIRE_${tool.env}`;
  if (process.env[variable] === '1' || process.env['KUSTOMIZE_TS_REQUIRE_ALL'] === '1') {
    throw new Error(`${tool.what} is required (${variable}=1 or KUSTOMIZE_TS_REQUIRE_ALL=1) but missing: ${tool.install}`);
  }
  const reason = `${tool.what} is missing: ${tool.install} (${variable}=1 makes this a failure)`;
  process.stderr.write(`# SKIPPING the tests that need ${name}: ${reason}\n`);
  return new Tool(reason, undefined);
}
