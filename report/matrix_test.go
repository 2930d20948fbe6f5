package report_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/mcpfit/mcplint/consumer"
	"github.com/mcpfit/mcplint/internal/sinktest"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/report"
)

func column(t *testing.T, m report.Matrix, id consumer.ID) int {
	t.Helper()
	for i, c := range m.Clients {
		if c.ID == id {
			return i
		}
	}
	t.Fatalf("no column for %s", id)
	return -1
}

// TestNewMatrix: each cell says what the findings on its tool say of the
// client: a refusal by a consumer a client is built on reaches it, an
// alteration is a milder mark that a refusal replaces, and findings about
// no tool have a row of their own.
func TestNewMatrix(t *testing.T) {
	m, err := manifest.Load("tools.json", []byte(`{"tools": [{"name": "a", "inputSchema": {}}, {"name": "b.c", "inputSchema": {"type": "object"}}, {"inputSchema": {"type": "object"}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	ds := []lint.Diagnostic{
		{Rule: "r-sdk", ToolIndex: 0, Consumers: []consumer.Refusal{{Consumer: consumer.TSSDK}}},
		{Rule: "r-vscode-rename", ToolIndex: 1, Consumers: []consumer.Refusal{{Consumer: consumer.VSCode, Mangles: true}}},
		{Rule: "r-cursor-rename", ToolIndex: 1, Consumers: []consumer.Refusal{{Consumer: consumer.Cursor, Mangles: true}}},
		{Rule: "r-cursor-refuse", ToolIndex: 1, Consumers: []consumer.Refusal{{Consumer: consumer.Cursor}}},
		{Rule: "r-anthropic", ToolIndex: 1, Consumers: []consumer.Refusal{{Consumer: consumer.Anthropic}, {Consumer: consumer.OpenAIChat}}},
		{Rule: "r-anthropic-2", ToolIndex: 1, Consumers: []consumer.Refusal{{Consumer: consumer.Anthropic}}},
		{Rule: "r-list", ToolIndex: -1, Consumers: []consumer.Refusal{{Consumer: consumer.ClaudeCode}}},
		{Rule: "r-spec-only", ToolIndex: 2, Consumers: []consumer.Refusal{{Consumer: consumer.MCPSpec}}},
	}
	mx := report.NewMatrix([]report.File{{Manifest: m, Diagnostics: ds}})
	for _, c := range mx.Clients {
		if !c.Default || c.ID == consumer.MCPSpec {
			t.Errorf("column %s is not a default-mode client", c.ID)
		}
	}
	if len(mx.Clients) != len(report.MatrixClients()) || len(mx.Rows) != 4 {
		t.Fatalf("%d columns, %d rows: %+v", len(mx.Clients), len(mx.Rows), mx.Rows)
	}
	cell := func(row int, id consumer.ID) report.Cell { return mx.Rows[row].Cells[column(t, mx, id)] }
	want := []struct {
		row   int
		id    consumer.ID
		v     report.Verdict
		rules []string
	}{
		{0, consumer.TSSDK, report.Refused, []string{"r-sdk"}},
		{0, consumer.ClaudeCode, report.Refused, []string{"r-sdk"}}, // built on the SDK
		{0, consumer.Cursor, report.Refused, []string{"r-sdk"}},
		{0, consumer.Anthropic, report.Accepted, nil},
		{1, consumer.VSCode, report.Changed, []string{"r-vscode-rename"}},
		{1, consumer.Cursor, report.Refused, []string{"r-cursor-refuse"}},
		{1, consumer.Anthropic, report.Refused, []string{"r-anthropic", "r-anthropic-2"}},
		{1, consumer.ClaudeAI, report.Refused, []string{"r-anthropic", "r-anthropic-2"}},
		{1, consumer.OpenAIChat, report.Refused, []string{"r-anthropic"}},
		{1, consumer.TSSDK, report.Accepted, nil},
		{2, consumer.TSSDK, report.Accepted, nil}, // the specification is no column
		{3, consumer.ClaudeCode, report.Refused, []string{"r-list"}},
		{3, consumer.Cursor, report.Accepted, nil},
	}
	for _, w := range want {
		if got := cell(w.row, w.id); got.Verdict != w.v || !slices.Equal(got.Rules, w.rules) {
			t.Errorf("row %d (%s), %s: %+v, want %v %v", w.row, mx.Rows[w.row].Tool, w.id, got, w.v, w.rules)
		}
	}
	if r := mx.Rows[3]; r.ToolIndex != -1 || r.File != "tools.json" {
		t.Errorf("the row of findings about no tool: %+v", r)
	}
	if mx.Refused() != 3 {
		t.Errorf("Refused() = %d, want 3", mx.Refused())
	}

	var text bytes.Buffer
	if err := report.WriteMatrix(&text, mx); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"tools.json: 3 tools\n", "\na    ", "\n#2   ", "\n(the server)  ", "1: r-sdk\n", "r-anthropic, r-anthropic-2\n", "~ "} {
		if !strings.Contains(text.String(), s) {
			t.Errorf("the table lacks %q:\n%s", s, text.String())
		}
	}
	lines := strings.Split(text.String(), "\n")
	if w := len([]rune(lines[1])); w != len([]rune(strings.TrimRight(lines[2], " "))) && len([]rune(lines[2])) > w {
		t.Errorf("rows wider than the heading:\n%s", text.String())
	}
}

// TestMatrixHostile: a tool or file name from input shows as inert text in
// the terminal table and as a code span in Markdown, cut to a bounded
// width in the table; the Markdown matrix stops at its row bound.
func TestMatrixHostile(t *testing.T) {
	var rows []report.MatrixRow
	for _, h := range append(sinktest.Hostile, strings.Repeat("長", 300)) {
		rows = append(rows, report.MatrixRow{File: h + ".json", Tool: h, ToolIndex: 0, Cells: make([]report.Cell, len(report.MatrixClients()))})
	}
	m := report.Matrix{Clients: report.MatrixClients(), Rows: rows}
	var text, md bytes.Buffer
	if err := report.WriteMatrix(&text, m); err != nil {
		t.Fatal(err)
	}
	if bad := sinktest.TerminalUnsafe(text.String(), false); len(bad) > 0 {
		t.Errorf("the table leaves %v", bad)
	}
	for _, l := range strings.Split(text.String(), "\n") {
		if strings.HasPrefix(l, "長") && strings.Contains(l, "✓") && len([]rune(strings.Fields(l)[0])) > 20 {
			t.Errorf("a 300-character name is shown whole: %q", l)
		}
	}
	if err := report.WriteMatrixMarkdown(&md, m); err != nil {
		t.Fatal(err)
	}
	if live := sinktest.MarkdownLive(md.String(), report.RulesDocURL); len(live) > 0 {
		t.Errorf("the Markdown matrix makes input live: %v", live)
	}

	many := report.Matrix{Clients: report.MatrixClients()}
	for i := range 600 {
		many.Rows = append(many.Rows, report.MatrixRow{File: "f", Tool: "t", ToolIndex: i, Cells: make([]report.Cell, len(many.Clients))})
	}
	md.Reset()
	if err := report.WriteMatrixMarkdown(&md, many); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(md.String(), "\n| `t` |"); n != 500 || !strings.Contains(md.String(), "100 more rows not shown") {
		t.Errorf("%d rows of 600 written", n)
	}
}
