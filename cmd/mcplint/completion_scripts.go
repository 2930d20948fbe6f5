package main

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v3"
)

// completionScripts are mcplint's shell completion scripts. Each asks
// mcplint for the candidates (see complete.go) and falls back to file
// names when there are none. The bash one uses bash's own complete and
// COMP_LINE, not the bash-completion package, which many systems lack
// (urfave/cli's calls its _get_comp_words_by_ref). %[1]s is the program's
// name.
var completionScripts = map[string]string{
	"bash": `# mcplint completion for bash; needs no bash-completion package.
#   source <(%[1]s completion bash)
_%[1]s_complete() {
  local line=${COMP_LINE:0:COMP_POINT} cur="" prefix=""
  local -a words
  read -r -a words <<< "$line"
  if [[ $line != *[[:space:]] && ${#words[@]} -gt 0 ]]; then
    cur=${words[${#words[@]}-1]}
    unset 'words[${#words[@]}-1]'
  fi
  local -a args=("${words[@]:1}")
  [[ $cur == -* ]] && args+=("$cur")
  # A list (--select a,b,c) is completed after its last comma.
  [[ $cur != -* && $cur == *,* ]] && prefix=${cur%%,*},
  # COMPREPLY replaces bash's own current word, which stops at = and :.
  local bashcur=${COMP_WORDS[COMP_CWORD]}
  local strip=${cur%%"$bashcur"}
  COMPREPLY=()
  local candidate
  while IFS= read -r candidate; do
    candidate=$prefix${candidate%%%%:*}
    [[ -n $candidate && $candidate == "$cur"* ]] || continue
    COMPREPLY+=("${candidate#"$strip"}")
  done < <(MCPLINT_COMPLETION_WORD="w:$cur" "${words[0]}" "${args[@]}" --generate-shell-completion 2>/dev/null)
  # With no candidate, -o default completes file names.
}
complete -o default -F _%[1]s_complete %[1]s
`,
	"zsh": `#compdef %[1]s
# mcplint completion for zsh (compinit loaded):
#   source <(%[1]s completion zsh)
# or save it as _%[1]s in a folder of $fpath.
_%[1]s() {
  local cur=${words[CURRENT]}
  local -a args lines
  args=("${(@)words[2,CURRENT-1]}")
  [[ $cur == -* ]] && args+=("$cur")
  lines=("${(@f)$(MCPLINT_COMPLETION_WORD="w:$cur" ${words[1]} "${(@)args}" --generate-shell-completion 2>/dev/null)}")
  lines=("${(@)lines:#}")
  if (( ${#lines} == 0 )); then
    _files
    return
  fi
  if [[ $cur == -*=* ]]; then
    compset -P '*='
    lines=("${(@)lines#*=}")
  elif [[ $cur == *,* ]]; then
    compset -P '*,'
  fi
  _describe -t values '%[1]s' lines
}
if [[ $funcstack[1] == _%[1]s ]]; then
  _%[1]s "$@"
else
  compdef _%[1]s %[1]s
fi
`,
	"fish": `# mcplint completion for fish:
#   %[1]s completion fish > ~/.config/fish/completions/%[1]s.fish
function __%[1]s_candidates
    set -l words (commandline -opc)
    set -l cur (commandline -ct)
    set -l args $words[2..-1]
    if string match -q -- '-*' $cur
        set args $args $cur
    end
    set -l prefix ''
    if not string match -q -- '-*' $cur; and string match -q -- '*,*' $cur
        set prefix (string replace -r '[^,]*$' '' -- $cur)
    end
    env MCPLINT_COMPLETION_WORD="w:$cur" $words[1] $args --generate-shell-completion 2>/dev/null | while read -l line
        test -n "$line"; or continue
        set -l parts (string split -m 1 ':' -- $line)
        if test (count $parts) -eq 2
            printf '%%s%%s\t%%s\n' $prefix $parts[1] $parts[2]
        else
            printf '%%s%%s\n' $prefix $line
        end
    end
end
function __%[1]s_files
    test -z "$(__%[1]s_candidates)"
end
complete -c %[1]s -e
complete -c %[1]s -f -n 'not __%[1]s_files' -a '(__%[1]s_candidates)'
complete -c %[1]s -F -n '__%[1]s_files'
`,
}

const completionDescription = `Prints a script that completes mcplint's commands, flags, the values of
--format, --to, --fail-on, --color, --protocol and --transport, the rule IDs
and packs of --select, --extend-select and --ignore, the rules, packs and
consumers of mcplint rules, and file names where a file is expected.

  bash (without the bash-completion package), in ~/.bashrc:
    source <(mcplint completion bash)
  zsh, in ~/.zshrc after compinit:
    source <(mcplint completion zsh)
  fish:
    mcplint completion fish > ~/.config/fish/completions/mcplint.fish
  PowerShell (urfave/cli's script: commands and flags only):
    mcplint completion pwsh > mcplint.ps1, then run it`

// configureCompletion makes the completion command mcplint's: listed, with
// its own scripts for bash, zsh and fish.
func configureCompletion(c *cli.Command) {
	c.Hidden = false
	c.Usage = "print a shell completion script: bash, zsh, fish or pwsh"
	c.Description = completionDescription
	c.Action = func(_ context.Context, cmd *cli.Command) error {
		if cmd.Args().Present() {
			// No suggestion: tcsh is not a typo of bash.
			return usagef("unknown shell %q; want %s", cmd.Args().First(), orList(subcommandNames(cmd)))
		}
		return cli.ShowSubcommandHelp(cmd)
	}
	for _, sub := range c.Commands {
		script, ok := completionScripts[sub.Name]
		if !ok {
			sub.Usage = "print the PowerShell completion script"
			continue
		}
		sub.Usage = "print the " + sub.Name + " completion script"
		sub.Action = func(_ context.Context, cmd *cli.Command) error {
			name := cmd.Root().Name
			_, err := fmt.Fprintf(cmd.Root().Writer, script, name)
			return err
		}
	}
}
