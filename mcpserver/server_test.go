package mcpserver_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpfit/mcplint/internal/sinktest"
	"github.com/mcpfit/mcplint/mcpserver"
	"github.com/mcpfit/mcplint/rules"
)

// connect serves o over an in-memory transport and returns a client
// session of it.
func connect(t *testing.T, o mcpserver.Options) *mcp.ClientSession {
	t.Helper()
	if o.Catalogue == nil {
		o.Catalogue = rules.All
	}
	s, err := mcpserver.New(o)
	if err != nil {
		t.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

// call calls a tool and returns its text and structured content.
func call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (string, map[string]any, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var text strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	var structured map[string]any
	if res.StructuredContent != nil {
		b, _ := json.Marshal(res.StructuredContent)
		_ = json.Unmarshal(b, &structured)
	}
	return text.String(), structured, res.IsError
}

const example = `{"tools": [
  {"name": "list_projects", "description": "List the projects.", "inputSchema": {}},
  {"name": "get_issue", "description": "Get one issue.", "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}}}
]}`

func workspace(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "tools.json"), []byte(example), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestTools: the tools a server without --allow-check offers, and what
// each returns for the same list given as text and as a file.
func TestTools(t *testing.T) {
	dir := workspace(t)
	cs := connect(t, mcpserver.Options{Workspace: dir})
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
		if tool.OutputSchema == nil || tool.Description == "" || tool.Annotations == nil || !tool.Annotations.ReadOnlyHint {
			t.Errorf("tool %s: %+v", tool.Name, tool)
		}
	}
	if strings.Join(names, " ") != "convert explain_rule fix lint" {
		t.Errorf("tools %v (check must need --allow-check)", names)
	}

	for _, src := range []map[string]any{{"manifest": example}, {"path": "tools.json"}, {"path": filepath.Join(dir, "tools.json")}} {
		text, out, isErr := call(t, cs, "lint", src)
		sum, _ := out["summary"].(map[string]any)
		if isErr || sum["errors"] != 1.0 || sum["tools"] != 2.0 || sum["contextTokens"].(float64) < 20 ||
			!strings.Contains(text, "error input-schema-root-object") || !strings.Contains(text, "context: 2 tools") {
			t.Errorf("lint %v: %v %v\n%s", src, isErr, out, text)
		}
		fs, _ := out["findings"].([]any)
		if len(fs) == 0 || fs[0].(map[string]any)["rule"] != "input-schema-root-object" || fs[0].(map[string]any)["line"] != 2.0 {
			t.Errorf("findings %v", fs)
		}
	}

	text, out, isErr := call(t, cs, "fix", map[string]any{"path": "tools.json"})
	fixed, _ := out["fixed"].(string)
	if isErr || !strings.Contains(fixed, `"inputSchema": {"type": "object"`) || !strings.Contains(out["diff"].(string), "+++ b/tools.json") ||
		out["applied"].(float64) < 1 || !strings.Contains(text, "fixes applied") {
		t.Errorf("fix: %v %v\n%s", isErr, out, text)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "tools.json")); string(b) != example {
		t.Error("fix wrote the file")
	}
	// What fix returns is a list lint finds nothing to fix in.
	_, again, _ := call(t, cs, "fix", map[string]any{"manifest": fixed})
	if again["applied"] != 0.0 {
		t.Errorf("fixing the fixed list applied %v", again["applied"])
	}

	text, out, isErr = call(t, cs, "convert", map[string]any{"path": "tools.json", "to": "openai"})
	if isErr || !strings.Contains(out["document"].(string), `"type": "function"`) || !strings.Contains(text, `"name": "list_projects"`) {
		t.Errorf("convert: %v %v\n%s", isErr, out, text)
	}
	if text, _, isErr = call(t, cs, "convert", map[string]any{"path": "tools.json", "to": "cobol"}); !isErr || !strings.Contains(text, "not a format") {
		t.Errorf("convert to an unknown format: %v %s", isErr, text)
	}

	text, out, isErr = call(t, cs, "explain_rule", map[string]any{"rule": "input-schema-root-object"})
	if isErr || out["rule"] != "input-schema-root-object" || !strings.HasPrefix(text, "# input-schema-root-object") || !strings.Contains(text, "Source") {
		t.Errorf("explain_rule: %v %v\n%.300s", isErr, out, text)
	}
	if text, _, isErr = call(t, cs, "explain_rule", map[string]any{"rule": "root-object"}); !isErr || !strings.Contains(text, "did you mean") || !strings.Contains(text, "input-schema-root-object") {
		t.Errorf("explain_rule of a near name: %v %s", isErr, text)
	}
	// A typo is no substring: the suggestion is the command line's.
	if text, _, isErr = call(t, cs, "explain_rule", map[string]any{"rule": "tool-name-vaild"}); !isErr || !strings.Contains(text, `did you mean tool-name-valid?`) {
		t.Errorf("explain_rule of a mistyped name: %v %s", isErr, text)
	}
	if text, _, _ = call(t, cs, "explain_rule", map[string]any{}); strings.Count(text, "\n| ") < len(rules.All) {
		t.Errorf("explain_rule without a rule lists %d lines", strings.Count(text, "\n| "))
	}
}

// TestWorkspace: no path reads a file outside the workspace, whether
// through "..", an absolute path or a symbolic link; a folder or a
// missing file is a clear error; the source is one of text or path.
func TestWorkspace(t *testing.T) {
	outside := t.TempDir()
	secret := filepath.Join(outside, "tools.json")
	if err := os.WriteFile(secret, []byte(example), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := workspace(t)
	if runtime.GOOS != "windows" {
		if err := os.Symlink(secret, filepath.Join(dir, "link.json")); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(outside, filepath.Join(dir, "linkdir")); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, mcpserver.Options{Workspace: dir})
	rel, _ := filepath.Rel(dir, secret)
	for path, want := range map[string]string{
		rel:                  "outside the workspace",
		secret:               "outside the workspace",
		"../" + rel:          "outside the workspace",
		"link.json":          "outside the workspace",
		"linkdir/tools.json": "outside the workspace",
		"missing.json":       "no such file",
		"sub":                "not a regular file",
		"a\x00b":             "NUL",
	} {
		if runtime.GOOS == "windows" && strings.HasPrefix(path, "link") {
			continue
		}
		text, _, isErr := call(t, cs, "lint", map[string]any{"path": path})
		if !isErr || !strings.Contains(text, want) || strings.Contains(text, "input-schema-root-object") {
			t.Errorf("path %q: error %v, %q; want %q", path, isErr, text, want)
		}
	}
	for _, args := range []map[string]any{{}, {"manifest": example, "path": "tools.json"}} {
		if _, _, isErr := call(t, cs, "lint", args); !isErr {
			t.Errorf("lint %v is no error", args)
		}
	}
	if _, err := mcpserver.New(mcpserver.Options{Catalogue: rules.All, Workspace: filepath.Join(dir, "missing")}); err == nil {
		t.Error("a missing workspace was served")
	}
}

// TestResources: every rule's documentation and the consumer matrix.
func TestResources(t *testing.T) {
	cs := connect(t, mcpserver.Options{Workspace: t.TempDir()})
	list, err := cs.ListResources(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Resources) != len(rules.All)+1 {
		t.Errorf("%d resources for %d rules", len(list.Resources), len(rules.All))
	}
	for _, uri := range []string{"mcplint://rules/tool-name-valid", "mcplint://consumers"} {
		res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
		if err != nil || len(res.Contents) != 1 || res.Contents[0].MIMEType != "text/markdown" || len(res.Contents[0].Text) < 200 {
			t.Errorf("%s: %v %+v", uri, err, res)
		}
	}
	if _, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "mcplint://rules/nope"}); err == nil {
		t.Error("an unknown rule was read")
	}
}

// TestHostile: names and descriptions from the input come back inert, in
// the text and the structured result, and a result is bounded.
func TestHostile(t *testing.T) {
	var tools []map[string]any
	for _, h := range sinktest.Hostile {
		tools = append(tools, map[string]any{"name": h, "description": h, "inputSchema": map[string]any{"type": "object", "properties": map[string]any{h: map[string]any{"type": "array"}}}})
	}
	src, _ := json.Marshal(map[string]any{"tools": tools})
	cs := connect(t, mcpserver.Options{Workspace: t.TempDir()})
	for _, tool := range []string{"lint", "fix", "convert"} {
		args := map[string]any{"manifest": string(src)}
		if tool == "convert" {
			args["to"] = "openai"
		}
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(res)
		var doc any
		_ = json.Unmarshal(b, &doc)
		var walk func(any)
		walk = func(v any) {
			switch v := v.(type) {
			case string:
				if bad := sinktest.TerminalUnsafe(v, false); len(bad) > 0 {
					t.Errorf("%s returns %s", tool, bad[0])
				}
				if cmds := sinktest.Commands(v); len(cmds) > 0 {
					t.Errorf("%s returns the runner command %s", tool, cmds[0])
				}
			case []any:
				for _, e := range v {
					walk(e)
				}
			case map[string]any:
				for _, e := range v {
					walk(e)
				}
			}
		}
		walk(doc)
		if len(b) < 1000 {
			t.Errorf("%s returned almost nothing: %s", tool, b)
		}
	}

	// The fixed list, escaped as it is, still holds the same values.
	_, out, _ := call(t, cs, "fix", map[string]any{"manifest": string(src)})
	var fixed struct{ Tools []struct{ Name string } }
	if err := json.Unmarshal([]byte(out["fixed"].(string)), &fixed); err != nil || len(fixed.Tools) != len(sinktest.Hostile) {
		t.Fatalf("the fixed list: %v, %d tools", err, len(fixed.Tools))
	}
	var input struct{ Tools []struct{ Name string } }
	_ = json.Unmarshal(src, &input)
	for i, tool := range fixed.Tools {
		if tool.Name != input.Tools[i].Name {
			t.Errorf("tool %d is %q in the fixed list, %q in the input", i, tool.Name, input.Tools[i].Name)
		}
	}

	// A list of many findings: the report and the findings are bounded.
	var many []map[string]any
	for i := range 3000 {
		many = append(many, map[string]any{"name": "tool " + strings.Repeat("x", i%50), "inputSchema": map[string]any{}})
	}
	src, _ = json.Marshal(map[string]any{"tools": many})
	text, out, _ := call(t, cs, "lint", map[string]any{"manifest": string(src)})
	_ = text
	if len(text) > mcpserver.MaxText+200 || !strings.Contains(text, "cut here") || len(out["findings"].([]any)) != mcpserver.MaxFindings || out["more"].(float64) < 1000 {
		t.Errorf("an unbounded result: %d bytes of text, %d findings, %v more", len(text), len(out["findings"].([]any)), out["more"])
	}
	text, out, _ = call(t, cs, "fix", map[string]any{"manifest": string(src)})
	if out["cut"] != true || out["fixed"] != "" || len(text) > mcpserver.MaxText+200 {
		t.Errorf("fix of a long list: cut %v, %d bytes", out["cut"], len(text))
	}
	if text, _, isErr := call(t, connect(t, mcpserver.Options{Workspace: t.TempDir(), Limits: manifestLimit(1000)}), "lint", map[string]any{"manifest": string(src)}); !isErr || !strings.Contains(text, "limit of 1000 bytes") {
		t.Errorf("a manifest over the size limit was read, or refused without naming the limit: %.300q", text)
	}
}
