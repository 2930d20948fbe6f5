package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/mcpfit/mcplint/internal/testenv"
)

// completionCases are command lines, the cursor at their end, and words
// their completion must offer (and, after "!", one it must not).
var completionCases = []struct{ line, want string }{
	{"mcplint ", "lint fix rules check convert completion !help"},
	{"mcplint li", "lint"},
	{"mcplint lint --form", "--format"},
	{"mcplint lint --format ", "text json sarif github gitlab junit checkstyle !--format"},
	{"mcplint lint --format s", "sarif"},
	{"mcplint lint --format=s", "sarif"},
	{"mcplint rules --format ", "text json !sarif"},
	{"mcplint convert --to ", "mcp openai anthropic gemini zod"},
	{"mcplint lint --fail-on ", "error warning info never"},
	{"mcplint fix --select openai-str", "openai-strict openai-strict-required"},
	{"mcplint lint --select mcp,rob", "mcp,robust"},
	{"mcplint lint --ignore ", "robust security tool-name-valid"},
	{"mcplint breaking --select ", "breaking non-breaking tool-removed !tool-name-valid"},
	{"mcplint check --transport ", "stdio http sse"},
	{"mcplint proxy --for ", "openai openai-strict gemini claude cursor vscode auto"},
	{"mcplint rules input-schema-root", "input-schema-root-object"},
	{"mcplint rules ", "mcp openai-strict tool-name-valid vscode"},
	{"mcplint completion ", "bash zsh fish pwsh"},
}

// checkCompletion fails t unless got (one candidate a line) holds what c
// wants.
func checkCompletion(t *testing.T, shell, line, want, got string) {
	t.Helper()
	have := map[string]bool{}
	for _, c := range strings.Split(got, "\n") {
		have[strings.TrimSpace(c)] = true
	}
	for _, w := range strings.Fields(want) {
		if not, ok := strings.CutPrefix(w, "!"); ok {
			if have[not] {
				t.Errorf("%s: %q offers %q:\n%s", shell, line, not, got)
			}
		} else if !have[w] {
			t.Errorf("%s: %q does not offer %q:\n%s", shell, line, w, got)
		}
	}
}

// shellPath returns a PATH whose mcplint is this test binary running
// mcplint (TestMain's "argv" mode), for the shells' scripts to call.
func shellPath(t *testing.T) []string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the completion scripts are for Unix shells")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	wrapper := "#!/bin/sh\n" + checkServerEnv + "=argv exec '" + exe + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(dir, "mcplint"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	return append(os.Environ(), "PATH="+dir+string(os.PathListSeparator)+os.Getenv("PATH"), "HOME="+dir, "XDG_CONFIG_HOME="+dir, "XDG_DATA_HOME="+dir)
}

// runShell runs script in a shell, and fails t on anything on stderr (bash
// said "_get_comp_words_by_ref: command not found" without the
// bash-completion package).
func runShell(t *testing.T, env []string, shell string, args ...string) []string {
	t.Helper()
	cmd := exec.Command(shell, args...)
	cmd.Env = env
	cmd.Dir = t.TempDir()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil || stderr.Len() > 0 {
		t.Fatalf("%s: %v\n%s", shell, err, stderr.String())
	}
	return strings.Split(string(out), "\x1e")
}

// TestCompletionBash completes in bash without the bash-completion
// package (--norc: nothing but the script is loaded), as bash does: the
// function the script registers is called with COMP_LINE, COMP_POINT and
// COMP_WORDS split at bash's word breaks.
func TestCompletionBash(t *testing.T) {
	bash := testenv.Command(t, "bash")
	env := shellPath(t)
	script := `source <(mcplint completion bash) || exit 1
[[ $(complete -p mcplint) == "complete -o default -F _mcplint_complete mcplint" ]] || { echo "not registered: $(complete -p mcplint)" >&2; exit 1; }
t() {
  COMP_LINE=$1 COMP_POINT=${#1}
  # bash's words: split at spaces, and at = (COMP_WORDBREAKS).
  local l=${1//=/ = }
  read -r -a COMP_WORDS <<< "$l"
  [[ $1 == *[\ =] ]] && COMP_WORDS+=("")
  COMP_CWORD=$((${#COMP_WORDS[@]}-1))
  _mcplint_complete
  printf '%s\n' "${COMPREPLY[@]}"
  printf '\x1e'
}
`
	for _, c := range completionCases {
		script += "t '" + c.line + "'\n"
	}
	outs := runShell(t, env, bash, "--norc", "--noprofile", "-c", script)
	for i, c := range completionCases {
		got := outs[i]
		if c.line == "mcplint lint --format=s" {
			// bash replaces the word after "=".
			checkCompletion(t, "bash", c.line, "sarif !--format=sarif", got)
			continue
		}
		checkCompletion(t, "bash", c.line, c.want, got)
	}
}

// TestCompletionZsh loads the script after compinit in zsh (-f: no user
// configuration) and checks that it registers itself, then runs its
// completion function with the words zsh gives it; the functions of
// zsh's completion system it calls print what they are handed.
func TestCompletionZsh(t *testing.T) {
	zsh := testenv.Command(t, "zsh")
	env := shellPath(t)
	dir := t.TempDir()
	script := `autoload -Uz compinit && compinit -u -d ` + filepath.Join(dir, "zcompdump") + ` || exit 1
source <(mcplint completion zsh) || exit 1
[[ ${_comps[mcplint]} == _mcplint ]] || { print -u2 "not registered"; exit 1 }
_describe() { print -rl -- "${(@)${(@P)${argv[-1]}}%%:*}" }
_files() { print -r -- "(files)" }
compset() { : }
t() {
  words=("${(@z)1}")
  [[ $1 == *' ' ]] && words+=("")
  CURRENT=${#words}
  _mcplint
  print -n '\x1e'
}
`
	for _, c := range completionCases {
		script += "t '" + c.line + "'\n"
	}
	script += "t 'mcplint lint testdata/'\n"
	outs := runShell(t, env, zsh, "-f", "-c", script)
	for i, c := range completionCases {
		// zsh filters the candidates by the word itself: every one is
		// handed over.
		want := c.want
		switch c.line {
		case "mcplint li", "mcplint rules input-schema-root", "mcplint lint --format s", "mcplint lint --format=s":
			want = strings.Fields(c.want)[0]
		case "mcplint lint --select mcp,rob":
			want = "robust" // after compset -P '*,'
		}
		checkCompletion(t, "zsh", c.line, want, outs[i])
	}
	checkCompletion(t, "zsh", "mcplint lint testdata/", "(files)", outs[len(completionCases)])
}

// TestCompletionFish loads the script in fish (--no-config) and asks fish
// to complete each line with complete -C, as it does on Tab.
func TestCompletionFish(t *testing.T) {
	fish := testenv.Command(t, "fish")
	env := shellPath(t)
	script := "mcplint completion fish | source; or exit 1\n"
	for _, c := range completionCases {
		script += "complete -C '" + c.line + "' | string replace -r '\\t.*' ''; printf '\\x1e'\n"
	}
	files := t.TempDir()
	if err := os.WriteFile(filepath.Join(files, "tools.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	script += "complete -C 'mcplint lint " + files + "/to' | string replace -r '\\t.*' ''; printf '\\x1e'\n"
	outs := runShell(t, env, fish, "--no-config", "-c", script)
	for i, c := range completionCases {
		want := c.want
		if c.line == "mcplint lint --format=s" {
			want = "--format=sarif"
		}
		checkCompletion(t, "fish", c.line, want, outs[i])
	}
	checkCompletion(t, "fish", "mcplint lint DIR/to", files+"/tools.json", outs[len(completionCases)])
}

// TestCompletionCandidates checks what mcplint prints for the scripts,
// with Go alone.
func TestCompletionCandidates(t *testing.T) {
	for _, c := range []struct {
		word string
		args []string
		want string
	}{
		{"", []string{"lint", "--format"}, "json\nsarif"},
		{"--format", []string{"lint", "--format"}, "--format:"},
		{"--format=j", []string{"lint", "--format=j"}, "--format=json\n"},
		{"--select=mcp,ro", []string{"lint", "--select=mcp,ro"}, "--select=mcp,robust:"},
		{"", []string{"rules"}, "tool-name-valid:"},
	} {
		r := mcplint(t, runOpts{env: map[string]string{completionWordVar: "w:" + c.word}}, append(c.args, "--generate-shell-completion")...)
		for _, w := range strings.Split(c.want, "\n") {
			if !strings.Contains(r.stdout, w) {
				t.Errorf("%v (word %q): no %q in\n%s", c.args, c.word, w, r.stdout)
			}
		}
	}
}
