package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/mcpfit/mcplint/internal/testenv"
	"github.com/mcpfit/mcplint/rules"
)

var update = flag.Bool("update", false, "rewrite the console examples of README.md and docs/*.md with what their commands print now (read every changed block before committing it)")

// TestDocExamples runs every console example of README.md and docs/*.md and
// compares what it prints with what the page shows, so that no example goes
// stale. An example is a fenced block whose info string is "console":
//
//   - A line starting with "$ " is a command. The lines after it, up to the
//     next "$ " line or the end of the block, are what it prints: standard
//     output and standard error together, in the order a terminal shows
//     them. Spaces at the end of a line are not compared.
//   - A line that is exactly "..." stands for any number of lines, none
//     included, so a page can show the start and the end of a long output.
//     An output of "..." alone shows nothing and fails.
//   - The exit status is not compared, unless the page shows it the way a
//     shell does: the command "echo $?" prints the previous command's status.
//   - "mcplint ARGS" and "go run ./cmd/mcplint ARGS" run mcplint in-process
//     with the real catalogue, from the repository root, with NO_COLOR set,
//     outputs that are not terminals and a terminal as standard input (read
//     only when named "-"). Words are split as a POSIX shell splits them
//     ('…', "…", backslash, "#" starting a comment); pipes, redirections,
//     variables, globs and "~" are refused. Any other command fails the
//     test: a block that cannot run here is fenced as "sh" (commands alone)
//     or "text" (an output that depends on the machine or the network).
//   - The commands of one block run in turn in a fresh folder that mirrors
//     the repository root with a symbolic link to each of its entries, so
//     what an example writes (mcplint.lock, convert -o) stays out of the
//     repository and the next command of the block finds it.
//   - HOME is testdata/docs-home, a home folder with MCP client
//     configurations, for check --discover.
//   - The MCP reference servers' commands (mcp-server-everything, …) are
//     found on PATH, as after `npm install -g`, in the pinned packages of
//     live/testdata/reference-servers, for a block that names one after "--"
//     or in its --client-config file. Without them (plain go test) such a
//     block is skipped; make test installs them.
//
// With -update, the output of each command that no longer matches is
// rewritten: in full, or, where the page elided lines, as many lines as it
// showed before the first "..." and after the last one, around one "...".
// Read every rewritten block before committing it.
func TestDocExamples(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the examples show a Unix shell: paths with '/', servers found through PATH")
	}
	root := testenv.RepoRoot(t)
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	pages = append([]string{filepath.Join(root, "README.md")}, pages...)
	examples := 0
	for _, path := range pages {
		rel, _ := filepath.Rel(root, path)
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(src), "\n")
		blocks, err := consoleBlocks(lines)
		if err != nil {
			t.Fatalf("%s:%v", rel, err)
		}
		for _, b := range blocks {
			examples += len(b.commands)
			t.Run(fmt.Sprintf("%s:%d", strings.ReplaceAll(rel, "/", "_"), b.line), func(t *testing.T) {
				runBlock(t, root, rel, b)
			})
		}
		if !*update {
			continue
		}
		// Rewrite from the end, so that earlier line numbers stay right.
		changed := false
		for i := len(blocks) - 1; i >= 0; i-- {
			for j := len(blocks[i].commands) - 1; j >= 0; j-- {
				c := blocks[i].commands[j]
				if c.rewrite == nil {
					continue
				}
				var out []string
				for _, l := range c.rewrite {
					if l != "" {
						l = blocks[i].indent + l
					}
					out = append(out, l)
				}
				lines = slices.Concat(lines[:c.outStart], out, lines[c.outEnd:])
				changed = true
			}
		}
		if changed {
			if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Logf("%d console examples in %d pages", examples, len(pages))
	if examples < 10 {
		t.Errorf("only %d console examples found: the test no longer reads the pages", examples)
	}
}

// elision is the line that stands for any number of lines.
const elision = "..."

type consoleBlock struct {
	line     int    // of the opening fence, from 1
	indent   string // of the fence, which every line of the block shares
	commands []*consoleCommand
}

type consoleCommand struct {
	line             int // from 1
	text             string
	want             []string
	outStart, outEnd int // the output's lines, as indices into the page
	rewrite          []string
}

// consoleBlocks finds the console blocks of a page's lines.
func consoleBlocks(lines []string) ([]*consoleBlock, error) {
	var blocks []*consoleBlock
	for i := 0; i < len(lines); i++ {
		trimmed := strings.TrimLeft(lines[i], " ")
		if !strings.HasPrefix(trimmed, "```") {
			continue
		}
		indent := lines[i][:len(lines[i])-len(trimmed)]
		end := i + 1
		for end < len(lines) && strings.TrimSpace(lines[end]) != "```" {
			end++
		}
		if end == len(lines) {
			return nil, fmt.Errorf("%d: a fenced block is never closed", i+1)
		}
		if strings.TrimSpace(strings.TrimPrefix(trimmed, "```")) == "console" {
			b := &consoleBlock{line: i + 1, indent: indent}
			for k := i + 1; k < end; k++ {
				l := strings.TrimPrefix(lines[k], indent)
				if cmd, ok := strings.CutPrefix(l, "$ "); ok {
					b.commands = append(b.commands, &consoleCommand{line: k + 1, text: cmd, outStart: k + 1, outEnd: k + 1})
					continue
				}
				if len(b.commands) == 0 {
					return nil, fmt.Errorf("%d: a console block starts with %q, not with a command (\"$ \")", k+1, l)
				}
				c := b.commands[len(b.commands)-1]
				c.want = append(c.want, l)
				c.outEnd = k + 1
			}
			blocks = append(blocks, b)
		}
		i = end
	}
	return blocks, nil
}

func runBlock(t *testing.T, root, page string, b *consoleBlock) {
	dir := t.TempDir()
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if err := os.Symlink(filepath.Join(root, e.Name()), filepath.Join(dir, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	home := filepath.Join(root, "cmd", "mcplint", "testdata", "docs-home")
	args := make([][]string, len(b.commands))
	for i, c := range b.commands {
		if c.text == "echo $?" {
			continue
		}
		var err error
		if args[i], err = commandArgs(c.text); err != nil {
			t.Fatalf("%s:%d: $ %s: %v", page, c.line, c.text, err)
		}
		if namesReferenceServer(t, args[i]) {
			bin := filepath.Join(testenv.NPM(t, testenv.ReferenceServers), "node_modules", ".bin")
			t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
		}
	}
	status := 0
	for i, c := range b.commands {
		var out string
		if args[i] == nil {
			out, status = fmt.Sprintf("%d\n", status), 0
		} else {
			out, status = runConsole(t, home, args[i])
		}
		got := outputLines(out)
		if matchLines(c.want, got) && !onlyElided(c.want) {
			continue
		}
		if *update {
			c.rewrite = elide(c.want, got)
			continue
		}
		t.Errorf("%s:%d: $ %s\nprints (exit status %d):\n%s\nthe page shows:\n%s\n(go test ./cmd/mcplint -run TestDocExamples -update rewrites it; read the result)",
			page, c.line, c.text, status, strings.Join(got, "\n"), strings.Join(c.want, "\n"))
	}
}

// namesReferenceServer says whether an mcplint command starts one of the
// MCP reference servers: named after "--", or in its --client-config file.
func namesReferenceServer(t *testing.T, args []string) bool {
	for i, a := range args {
		switch {
		case a == "--":
			return i+1 < len(args) && strings.HasPrefix(args[i+1], "mcp-server-")
		case a == "--client-config" && i+1 < len(args) || strings.HasPrefix(a, "--client-config="):
			path := strings.TrimPrefix(a, "--client-config=")
			if a == "--client-config" {
				path = args[i+1]
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Contains(b, []byte(`"mcp-server-`)) {
				return true
			}
		}
	}
	return false
}

// commandArgs returns the arguments of an mcplint command line.
func commandArgs(line string) ([]string, error) {
	words, err := shellWords(line)
	if err != nil {
		return nil, err
	}
	switch {
	case len(words) > 0 && words[0] == "mcplint":
		return words[1:], nil
	case len(words) > 2 && words[0] == "go" && words[1] == "run" && words[2] == "./cmd/mcplint":
		return words[3:], nil
	}
	return nil, errors.New(`only "mcplint …", "go run ./cmd/mcplint …" and "echo $?" run in a console block; fence other commands as sh, or an output that cannot be reproduced as text`)
}

// shellWords splits a command line as a POSIX shell splits words, and
// refuses what would need a shell to run.
func shellWords(line string) ([]string, error) {
	var words []string
	var w strings.Builder
	open := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ' ' || c == '\t':
			if open {
				words, open = append(words, w.String()), false
				w.Reset()
			}
		case c == '#' && !open:
			return words, nil
		case c == '\'':
			j := strings.IndexByte(line[i+1:], '\'')
			if j < 0 {
				return nil, errors.New("a ' is never closed")
			}
			w.WriteString(line[i+1 : i+1+j])
			i, open = i+1+j, true
		case c == '"':
			for i++; i < len(line) && line[i] != '"'; i++ {
				switch {
				case line[i] == '\\' && i+1 < len(line) && strings.IndexByte("\\\"$`", line[i+1]) >= 0:
					i++
				case line[i] == '$' || line[i] == '`':
					return nil, fmt.Errorf("%c inside \"…\" needs a shell", line[i])
				}
				w.WriteByte(line[i])
			}
			if i == len(line) {
				return nil, errors.New(`a " is never closed`)
			}
			open = true
		case c == '\\' && i+1 < len(line):
			i++
			w.WriteByte(line[i])
			open = true
		case strings.IndexByte("|&;<>(){}$`*?[", c) >= 0 || c == '~' && !open:
			return nil, fmt.Errorf("%c needs a shell (pipes, redirections, variables, globs and ~ do not run here)", c)
		default:
			w.WriteByte(c)
			open = true
		}
	}
	if open {
		words = append(words, w.String())
	}
	return words, nil
}

// runConsole runs mcplint in-process as the examples show it, and returns
// what it printed and its exit status.
func runConsole(t *testing.T, home string, args []string) (string, int) {
	// Both outputs write to one buffer, in turn, as to a terminal's screen.
	var out testenv.Buffer
	e := &env{
		stdin: strings.NewReader(""), stdout: &out, stderr: &out,
		stdinTTY: true,
		getenv: func(k string) string {
			switch k {
			case "NO_COLOR":
				return "1"
			case "HOME":
				return home
			}
			return ""
		},
		catalogue: rules.All,
	}
	code := e.run(t.Context(), append([]string{"mcplint"}, args...))
	return out.String(), code
}

// outputLines splits what a command printed into lines, without the spaces
// that end them.
func outputLines(out string) []string {
	if out == "" {
		return nil
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	return lines
}

// matchLines says whether got is what want shows, each "..." of want
// standing for any number of lines.
func matchLines(want, got []string) bool {
	if len(want) == 0 {
		return len(got) == 0
	}
	if w := strings.TrimRight(want[0], " \t"); w == elision {
		for k := 0; k <= len(got); k++ {
			if matchLines(want[1:], got[k:]) {
				return true
			}
		}
		return false
	} else if len(got) == 0 || w != got[0] {
		return false
	}
	return matchLines(want[1:], got[1:])
}

// onlyElided says whether want shows nothing but elisions, which would
// match any output.
func onlyElided(want []string) bool {
	for _, l := range want {
		if strings.TrimRight(l, " \t") != elision {
			return false
		}
	}
	return len(want) > 0
}

// elide returns got as the page should now show it: whole, or, when want
// elided lines, as many lines before and after one "..." as want showed.
func elide(want, got []string) []string {
	first, last := slices.Index(want, elision), -1
	for i, l := range want {
		if l == elision {
			last = i
		}
	}
	if first < 0 {
		return got
	}
	head, tail := first, len(want)-1-last
	if head+tail == 0 || head+tail >= len(got) {
		return got
	}
	return slices.Concat(got[:head], []string{elision}, got[len(got)-tail:])
}

// TestConsoleSyntax: the reading of console blocks that TestDocExamples
// relies on.
func TestConsoleSyntax(t *testing.T) {
	page := strings.Split("text\n```console\n$ mcplint lint a.json\nline 1\n...\nlast\n$ echo $?\n1\n```\n\n- item\n\n  ```console\n  $ mcplint rules\n  ```\n```sh\n$ make test\n```\n", "\n")
	blocks, err := consoleBlocks(page)
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 2 || len(blocks[0].commands) != 2 || len(blocks[1].commands) != 1 {
		t.Fatalf("blocks: %+v", blocks)
	}
	c := blocks[0].commands[0]
	if c.text != "mcplint lint a.json" || c.line != 3 || !slices.Equal(c.want, []string{"line 1", "...", "last"}) || c.outStart != 3 || c.outEnd != 6 {
		t.Errorf("first command: %+v", c)
	}
	if c := blocks[1].commands[0]; blocks[1].indent != "  " || c.text != "mcplint rules" || len(c.want) != 0 {
		t.Errorf("indented block: %q %+v", blocks[1].indent, c)
	}
	if _, err := consoleBlocks([]string{"```console", "output first", "```"}); err == nil {
		t.Error("a block that starts with output is accepted")
	}

	for _, m := range []struct {
		want, got []string
		ok        bool
	}{
		{[]string{"a", "...", "z"}, []string{"a", "b", "c", "z"}, true},
		{[]string{"a", "...", "z"}, []string{"a", "z"}, true},
		{[]string{"...", "m", "..."}, []string{"a", "m", "z"}, true},
		{[]string{"a", "...", "z"}, []string{"a", "b"}, false},
		{[]string{"a"}, []string{"a", "b"}, false},
		{[]string{"a  "}, []string{"a"}, true},
	} {
		if matchLines(m.want, m.got) != m.ok {
			t.Errorf("matchLines(%q, %q) = %v", m.want, m.got, !m.ok)
		}
	}
	if !onlyElided([]string{"..."}) || onlyElided([]string{"...", "x"}) || onlyElided(nil) {
		t.Error("onlyElided")
	}
	if got := elide([]string{"a", "...", "y", "z"}, []string{"1", "2", "3", "4", "5"}); !slices.Equal(got, []string{"1", "...", "4", "5"}) {
		t.Errorf("elide kept %q", got)
	}

	for line, want := range map[string][]string{
		`mcplint lint --select 'a b' "c \"d\"" e\ f # a comment`: {"lint", "--select", "a b", `c "d"`, "e f"},
		`go run ./cmd/mcplint rules`:                             {"rules"},
	} {
		if got, err := commandArgs(line); err != nil || !slices.Equal(got, want) {
			t.Errorf("%s: %q, %v", line, got, err)
		}
	}
	for _, line := range []string{"make test", "mcplint lint | head", "mcplint lint > out", "mcplint lint $FILE", "mcplint lint *.json", "mcplint lint ~/tools.json", `mcplint lint "$HOME"`, "mcplint lint 'open"} {
		if _, err := commandArgs(line); err == nil {
			t.Errorf("%s: accepted", line)
		}
	}
}
