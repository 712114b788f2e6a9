import { KustomizeError } from '../../errors.js';
import type { Command } from '../command.js';

const PROGRAM = 'kustomize-ts';
const FN = '_kustomize_ts';

/** Each script asks the CLI itself (`kustomize-ts __complete WORDS...`) for candidates, as cobra's scripts do, and falls back to file names. */
const SCRIPTS: Record<string, string> = {
  bash: `# bash completion for ${PROGRAM}
${FN}() {
  local cur="\${COMP_WORDS[COMP_CWORD]}"
  local IFS=$'\\n'
  local out
  out=$(${PROGRAM} __complete -- "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null)
  if [ -n "$out" ]; then
    COMPREPLY=($(compgen -W "$out" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
complete -o default -F ${FN} ${PROGRAM}
`,
  zsh: `#compdef ${PROGRAM}
# zsh completion for ${PROGRAM}
${FN}() {
  local -a candidates
  candidates=("\${(@f)$(${PROGRAM} __complete -- "\${(@)words[2,CURRENT]}" 2>/dev/null)}")
  if [[ -n "\${candidates[1]}" ]]; then
    compadd -- "\${candidates[@]}"
  else
    _files
  fi
}
compdef ${FN} ${PROGRAM}
`,
  fish: `# fish completion for ${PROGRAM}
function __${FN}_complete
    set -l args (commandline -opc)[2..-1] (commandline -ct)
    ${PROGRAM} __complete -- $args 2>/dev/null
end
complete -c ${PROGRAM} -a '(__${FN}_complete)'
`,
  powershell: `# powershell completion for ${PROGRAM}
Register-ArgumentCompleter -Native -CommandName '${PROGRAM}' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)
    $words = @($commandAst.CommandElements | Select-Object -Skip 1 | ForEach-Object { $_.ToString() })
    if ($wordToComplete -eq '') { $words += '""' }
    & '${PROGRAM}' __complete -- @words 2>$null | Where-Object { $_ -ne '' } | ForEach-Object {
        [System.Management.Automation.CompletionResult]::new($_, $_, 'ParameterValue', $_)
    }
}
`,
};

/** `completion SHELL` and the hidden `__complete` the scripts call; `root` is the command tree to complete. */
export function completionCommands(root: () => Command): Command[] {
  const completion: Command = {
    name: 'completion',
    summary: 'Generate the autocompletion script for the specified shell',
    usage: 'completion [bash|zsh|fish|powershell]',
    description: `Generate the autocompletion script for ${PROGRAM} for the specified shell.

To load completions in your current shell session:

  bash:        source <(${PROGRAM} completion bash)
  zsh:         source <(${PROGRAM} completion zsh)
  fish:        ${PROGRAM} completion fish | source
  powershell:  ${PROGRAM} completion powershell | Out-String | Invoke-Expression`,
    flags: [],
    async run({ positional }, io) {
      const script = positional.length === 1 ? SCRIPTS[positional[0]!] : undefined;
      if (!script) throw new KustomizeError('USAGE', `specify one shell: bash, zsh, fish or powershell`);
      io.out(script);
      return 0;
    },
  };
  const complete: Command = {
    name: '__complete',
    hidden: true,
    summary: 'Prints the completions of the last word, one a line',
    usage: '__complete [WORDS...]',
    flags: [],
    async run({ positional }, io) {
      io.out(candidates(root(), positional).map((c) => `${c}\n`).join(''));
      return 0;
    },
  };
  return [completion, complete];
}

/** The subcommands (or, for `-…`, the flags) of the command the words lead to that start with the last word. */
function candidates(root: Command, words: string[]): string[] {
  const prefix = words[words.length - 1] ?? '';
  let command = root;
  // the persistent flags of the commands on the way, which every command below takes
  const persistent = [...(root.persistentFlags ?? [])];
  for (const word of words.slice(0, -1)) {
    const sub = command.subcommands?.find((c) => !c.hidden && (c.name === word || c.aliases?.includes(word)));
    if (sub) {
      command = sub;
      persistent.push(...(sub.persistentFlags ?? []));
    }
  }
  const names = prefix.startsWith('-')
    ? [...command.flags, ...persistent].map((f) => `--${f.name}`).concat('--help')
    : (command.subcommands ?? []).filter((c) => !c.hidden).map((c) => c.name);
  return names.filter((n) => n.startsWith(prefix));
}
