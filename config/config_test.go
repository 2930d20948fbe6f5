package config

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/rules"
)

const good = `# a project configuration
select: [mcp]
extend-select: [robust]
protocol: "2025-06-18"
severity:
  tool-name-valid: warning
  input-schema-root-object: "off"
ignore:
  - rule: tool-name-valid
    tool: "legacy_*"
    file: "vendor/*.json"
    reason: the vendor's names are kept as they are
servers:
  fs:
    command: npx
    args: ["-y", "@modelcontextprotocol/server-filesystem", "."]
    env: {DEBUG: "1"}
  remote:
    url: https://example.com/mcp
    headers: {Authorization: "Bearer x"}
    type: http
`

func write(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadGood(t *testing.T) {
	dir := t.TempDir()
	f, err := Load(write(t, dir, ".mcplint.yaml", good))
	if err != nil {
		t.Fatal(err)
	}
	if f.Servers["fs"].Kind() != "stdio" || f.Servers["remote"].Kind() != "http" {
		t.Errorf("server kinds: %q %q", f.Servers["fs"].Kind(), f.Servers["remote"].Kind())
	}
	cfg, err := f.LintConfig(rules.All)
	if err != nil {
		t.Fatal(err)
	}
	want := lint.Config{
		Select: []string{"mcp"}, ExtendSelect: []string{"robust"}, Protocol: "2025-06-18",
		Ignore:   []string{"input-schema-root-object"},
		Severity: map[string]lint.Severity{"tool-name-valid": lint.Warning},
		Suppress: []lint.Suppression{{Rule: "tool-name-valid", Tool: "legacy_*", File: "vendor/*.json", Dir: f.Dir, Reason: "the vendor's names are kept as they are"}},
	}
	if d := cmp.Diff(want, cfg); d != "" {
		t.Errorf("lint config (-want +got):\n%s", d)
	}
}

func TestLoadJSON(t *testing.T) {
	dir := t.TempDir()
	_, err := Load(write(t, dir, ".mcplint.json", "{\n  \"select\": [\"mcp\"],\n  \"fail-on\": 3\n}\n"))
	var es Errors
	if !errors.As(err, &es) || len(es) != 1 {
		t.Fatalf("err = %v, want one schema error", err)
	}
	if es[0].Line != 3 || es[0].Column != 3 {
		t.Errorf("position %d:%d, want 3:3 (%v)", es[0].Line, es[0].Column, es[0])
	}
}

func TestLoadErrorsHavePositions(t *testing.T) {
	for _, c := range []struct {
		name, src string
		want      []string // substrings of the errors, in order
	}{
		{"unknown key", "select: [mcp]\nselct: [robust]\n", []string{":2:1: ", "selct"}},
		{"wrong type", "select: mcp\n", []string{":1:1: ", "select", "array"}},
		{"missing reason", "ignore:\n  - rule: tool-name-valid\n", []string{":2:5: ", "reason"}},
		{"bad level", "severity:\n  tool-name-valid: loud\n", []string{":2:3: ", "severity.tool-name-valid"}},
		{"server without command or url", "servers:\n  x:\n    args: [a]\n", []string{":2:3: ", "servers.x"}},
		{"nested unknown key", "servers:\n  x:\n    command: a\n    cmd: b\n", []string{":4:5: ", "cmd"}},
		{"yaml syntax", "select: [mcp\n", []string{".mcplint.yaml:"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Load(write(t, t.TempDir(), ".mcplint.yaml", c.src))
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			rest := msg
			for _, w := range c.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("error %q lacks %q", msg, w)
				}
				rest = rest[i+len(w):]
			}
		})
	}
}

func TestLintConfigChecksNames(t *testing.T) {
	for _, src := range []string{
		"severity: {no-such-rule: error}\n",
		"options: {no-such-rule: {a: 1}}\n",
		"options: {integer-accepts-string: {form: bogus}}\n",
		"ignore: [{rule: no-such-rule, reason: r}]\n",
		"ignore: [{tool: '[', reason: r}]\n",
		"select: [no-such-pack]\n",
		"protocol: '1999-01-01'\n",
	} {
		f, err := Load(write(t, t.TempDir(), ".mcplint.yaml", src))
		if err != nil {
			t.Fatalf("%q: load: %v", src, err)
		}
		if _, err := f.LintConfig(rules.All); err == nil || !strings.Contains(err.Error(), ".mcplint.yaml") {
			t.Errorf("%q: err = %v, want one naming the file", src, err)
		}
	}
}

// TestLintConfigErrorsHavePositions checks that a name the catalogue does
// not know is reported at its line and column, with what to do.
func TestLintConfigErrorsHavePositions(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"select:\n  - mcp\n  - input-schema-root-objct\n", `.mcplint.yaml:3:5: select: unknown rule or pack "input-schema-root-objct"; did you mean "input-schema-root-object"?`},
		{"extend-select: [robust, zzzzzzzzzzzzzz]\n", `.mcplint.yaml:1:25: extend-select: unknown rule or pack "zzzzzzzzzzzzzz"; the packs are `},
		{"severity:\n  tool-name-valid: warning\n  tool-name-vald: error\n", `.mcplint.yaml:3:3: severity: unknown rule "tool-name-vald"; did you mean "tool-name-valid"?`},
		{"options:\n  zzzzzzzzzzzzzz: {a: 1}\n", `.mcplint.yaml:2:3: options: unknown rule "zzzzzzzzzzzzzz"; ` + "`mcplint rules`" + ` lists the rules`},
		{"ignore:\n  - rule: mcp\n    reason: r\n  - rule: tool-name-vald\n    reason: r\n", `.mcplint.yaml:4:5: ignore: unknown rule or pack "tool-name-vald"; did you mean "tool-name-valid"?`},
		{"# the protocol\nprotocol: '1999-01-01'\n", `.mcplint.yaml:2:1: protocol: unknown MCP protocol version "1999-01-01"; want one of `},
		{`{"select": ["mcp", "input-schema-root-objct"]}`, `.mcplint.json:1:20: select: unknown rule or pack "input-schema-root-objct"; did you mean`},
	} {
		name := ".mcplint.yaml"
		if strings.HasPrefix(tc.src, "{") {
			name = ".mcplint.json"
		}
		dir := t.TempDir()
		f, err := Load(write(t, dir, name, tc.src))
		if err != nil {
			t.Fatalf("%q: load: %v", tc.src, err)
		}
		_, err = f.LintConfig(rules.All)
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%q: %v, want an *Error", tc.src, err)
			continue
		}
		if got := strings.TrimPrefix(e.Error(), filepath.Dir(e.Path)+string(filepath.Separator)); !strings.HasPrefix(got, tc.want) {
			t.Errorf("%q:\n got %s\nwant %s", tc.src, got, tc.want)
		}
	}
}

func TestFind(t *testing.T) {
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	deep := filepath.Join(root, "a", "b")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	if p, err := Find(deep); err != nil || p != "" {
		t.Errorf("Find without a file = %q, %v", p, err)
	}
	want := write(t, root, ".mcplint.yml", "select: [mcp]\n")
	if p, err := Find(deep); err != nil || p != want {
		t.Errorf("Find = %q, %v; want %q", p, err, want)
	}
	nearer := write(t, filepath.Join(root, "a"), ".mcplint.json", "{}")
	if p, _ := Find(deep); p != nearer {
		t.Errorf("Find = %q, want the nearer %q", p, nearer)
	}
}

// TestManifestFiles: the files: globs name each file once, in order, and
// "**" reaches any depth, as the servers/**/tools.json of
// docs/configuration.md promises.
func TestManifestFiles(t *testing.T) {
	for _, tc := range []struct {
		name   string
		files  []string
		config string
		want   []string
	}{{
		name:   "star and a file it already matched",
		files:  []string{"tools/a.json", "tools/b.json", "other.txt"},
		config: "files: [tools/*.json, tools/a.json]\n",
		want:   []string{"tools/a.json", "tools/b.json"},
	}, {
		name:   "double star",
		files:  []string{"servers/a/tools.json", "servers/b/deep/tools.json", "servers/c/other.json"},
		config: "files: [\"servers/**/tools.json\"]\n",
		want:   []string{"servers/a/tools.json", "servers/b/deep/tools.json"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, name := range tc.files {
				write(t, dir, name, "{}")
			}
			if rel := manifestFiles(t, dir, tc.config); !slices.Equal(rel, tc.want) {
				t.Errorf("ManifestFiles = %v, want %v", rel, tc.want)
			}
		})
	}
}

// manifestFiles writes config as dir's .mcplint.yaml and returns the
// manifests its "files" name, relative to dir, with forward slashes.
func manifestFiles(t *testing.T, dir, config string) []string {
	t.Helper()
	f, err := Load(write(t, dir, ".mcplint.yaml", config))
	if err != nil {
		t.Fatal(err)
	}
	got, err := f.ManifestFiles()
	if err != nil {
		t.Fatal(err)
	}
	var rel []string
	for _, p := range got {
		r, _ := filepath.Rel(dir, p)
		rel = append(rel, filepath.ToSlash(r))
	}
	return rel
}

// TestManifestFilesLinks: "**" does not go through a symbolic link to a
// folder, which a repository can commit: one back up the tree made the
// walk endless, one to a folder out of it linted (and showed) files there.
// A link to a file is a file, and is matched.
func TestManifestFilesLinks(t *testing.T) {
	dir := t.TempDir()
	out := t.TempDir()
	write(t, out, "secret/tools.json", "{}")
	write(t, dir, "servers/a/tools.json", "{}")
	for link, target := range map[string]string{
		"servers/loop":       "..",
		"servers/a/self":     ".",
		"servers/home":       filepath.Join(out, "secret"),
		"servers/tools.json": filepath.Join("a", "tools.json"),
	} {
		if err := os.Symlink(target, filepath.Join(dir, filepath.FromSlash(link))); err != nil {
			t.Skipf("no symbolic links here: %v", err)
		}
	}
	if runtime.GOOS != "windows" {
		// A device (or /dev/stdin, /dev/tty) is not a manifest: reading
		// one waits for input or never ends.
		if err := os.MkdirAll(filepath.Join(dir, "servers", "dev"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(os.DevNull, filepath.Join(dir, "servers", "dev", "tools.json")); err != nil {
			t.Fatal(err)
		}
	}
	rel := manifestFiles(t, dir, "files: [\"**/tools.json\", \"servers/*/tools.json\"]\n")
	if want := []string{"servers/a/tools.json", "servers/tools.json"}; !slices.Equal(rel, want) {
		t.Errorf("ManifestFiles = %v, want %v", rel, want)
	}
}

func TestSchemaIsValid(t *testing.T) {
	if _, err := compiledSchema(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(Schema()), `"reason"`) {
		t.Error("schema lacks the ignore entries' reason")
	}
}

// TestLoadLimits: the configuration is read under a manifest's limits. A
// few hundred bytes of YAML anchors that stand for gigabytes, a document
// nested thousands deep and a file over the size bound each end with one
// error at its place, at once.
func TestLoadLimits(t *testing.T) {
	var bomb strings.Builder
	bomb.WriteString(`a: &a ["x","x","x","x","x","x","x","x","x"]` + "\n")
	for i := 1; i < 9; i++ {
		p, n := string(rune('a'+i-1)), string(rune('a'+i))
		bomb.WriteString(n + ": &" + n + " [" + strings.TrimSuffix(strings.Repeat("*"+p+",", 9), ",") + "]\n")
	}
	dir := t.TempDir()
	for _, c := range []struct {
		name, src string
		limit     manifest.Limit
		want      string
	}{
		{"alias bomb", bomb.String(), manifest.LimitYAMLExpansion, ".mcplint.yaml:7:26: aliases stand for more than 16 MiB of values"},
		{"deep", "select: " + strings.Repeat("[", 3000) + strings.Repeat("]", 3000) + "\n", manifest.LimitDepth, ".mcplint.yaml:1:1016: nesting deeper than 1000 levels"},
		{"over the size", "select: [" + strings.Repeat("a,", 600000) + "a]\n", manifest.LimitSize, ".mcplint.yaml: larger than 1 MiB: not a configuration file"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Load(write(t, dir, ".mcplint.yaml", c.src))
			var e *Error
			if !errors.As(err, &e) || e.Limit != c.limit || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want limit %q and %q", err, c.limit, c.want)
			}
		})
	}
}

// TestSchemaErrorsSayWhatToDo checks that a file the schema refuses gets,
// like every user error, what is wrong and then what to do.
func TestSchemaErrorsSayWhatToDo(t *testing.T) {
	for _, src := range []string{"rules: {x: 1}\n", "select: mcp\n", "fail-on: sometimes\n"} {
		_, err := Load(write(t, t.TempDir(), ".mcplint.yaml", src))
		var es Errors
		if !errors.As(err, &es) || len(es) == 0 {
			t.Fatalf("%q: %v", src, err)
		}
		for _, e := range es {
			if e.Line == 0 || !strings.Contains(e.Msg, "; `mcplint schema config` prints every setting") {
				t.Errorf("%q: %s", src, e)
			}
		}
	}
	_, err := Load(write(t, t.TempDir(), ".mcplint.yaml", "rules: {x: 1}\n"))
	if !strings.Contains(err.Error(), `at the top level: unknown setting "rules"; `) {
		t.Errorf("unknown key: %v", err)
	}
}
