package manifest_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/schema"
)

// tidySchema is a rule for this test only: its fixes, built with lint.Diff
// like the catalogue's, add, replace and remove members at several depths.
var tidySchema = &lint.Rule{
	ID:       "tidy-schema",
	Packs:    []string{"test"},
	Severity: lint.Warning,
	Summary:  "input schemas are objects whose properties have a type and no title",
	Doc:      "For the YAML fix loop test.",
	Fix:      lint.SafeFix,
	Check: func(p *lint.Pass) {
		old, ok := p.Value["inputSchema"]
		if !ok {
			p.ReportFix("", &lint.Fix{Message: "add an input schema", Safe: true, Edits: []manifest.Edit{
				{Op: manifest.Add, Pointer: "/inputSchema", Value: map[string]any{"type": "object"}},
			}}, "no inputSchema")
			return
		}
		s, _ := schema.Clone(old).(map[string]any)
		if s == nil {
			return
		}
		s["type"] = "object"
		props, _ := s["properties"].(map[string]any)
		for _, v := range props {
			if ps, ok := v.(map[string]any); ok {
				delete(ps, "title")
				if _, ok := ps["type"]; !ok {
					ps["type"] = "string"
				}
			}
		}
		if req, ok := s["required"].([]any); ok {
			var keep []any
			for _, r := range req {
				if name, _ := r.(string); props[name] != nil {
					keep = append(keep, r)
				}
			}
			if len(keep) == 0 {
				delete(s, "required")
			} else {
				s["required"] = keep
			}
		}
		if edits := lint.Diff("/inputSchema", old, s); len(edits) > 0 {
			p.ReportFix("/inputSchema", &lint.Fix{Message: "tidy the schema", Safe: true, Edits: edits}, "untidy input schema")
		}
	},
}

const untidy = `# Tools of the demo server.
defs:
  text: &text {type: string, title: Text}
tools:
  - name: search   # the main tool
    description: |
      Finds things.
    inputSchema:
      # what the client sends
      properties:
        query:
          title: Query
          minLength: 1
        lang: *text
        page: {title: Page, type: integer}
      required: [query, missing]
  - name: ping
  - name: tidy
    inputSchema: {type: object, properties: {x: {type: string}}}
`

const tidied = `# Tools of the demo server.
defs:
  text: &text {type: string, title: Text}
tools:
  - name: search   # the main tool
    description: |
      Finds things.
    inputSchema:
      # what the client sends
      properties:
        query:
          minLength: 1
          type: string
        lang:
          type: string
        page: {type: integer}
      required: [query]
      type: object
  - name: ping
    inputSchema:
      type: object
  - name: tidy
    inputSchema: {type: object, properties: {x: {type: string}}}
`

// TestYAMLFixLoop runs the real lint/fix loop over a YAML manifest:
// diagnostics are placed in the YAML, fixes are spliced as YAML and reach a
// fixed point, and what no fix touches keeps its bytes.
func TestYAMLFixLoop(t *testing.T) {
	m, err := manifest.Load("tools.yaml", []byte(untidy))
	if err != nil {
		t.Fatal(err)
	}
	l, err := lint.New([]*lint.Rule{tidySchema}, lint.Config{Select: []string{"tidy-schema"}})
	if err != nil {
		t.Fatal(err)
	}
	diags, err := l.Lint(m)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range diags {
		got = append(got, fmt.Sprintf("%d:%d %s %s", d.Line, d.Column, d.Pointer, d.Message))
	}
	sort.Strings(got)
	want := []string{
		"17:5 /tools/1 no inputSchema",
		"8:5 /tools/0/inputSchema untidy input schema",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
	res, err := l.Fix(m)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(tidied, string(res.Src)); diff != "" {
		t.Errorf("fixed (-want +got):\n%s", diff)
	}
	if len(res.Remaining) != 0 {
		t.Errorf("findings left: %v", res.Remaining)
	}
	again, err := l.Fix(res.Manifest)
	if err != nil {
		t.Fatal(err)
	}
	if again.Applied != 0 || string(again.Src) != string(res.Src) {
		t.Errorf("fixing the fixed source changed it:\n%s", again.Src)
	}
	if !strings.HasSuffix(string(res.Src), "  - name: tidy\n    inputSchema: {type: object, properties: {x: {type: string}}}\n") {
		t.Error("the tidy tool's bytes changed")
	}
}
