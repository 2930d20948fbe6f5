package lint_test

import (
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
)

// Toy rules. Each fixes one thing; together they collide, uncover each
// other and, for one, never settle.

func safeFix(msg string, edits ...manifest.Edit) *lint.Fix {
	return &lint.Fix{Message: msg, Safe: true, Edits: edits}
}

var trimDescription = &lint.Rule{ID: "trim", Packs: []string{"mcp"}, Severity: lint.Warning, Fix: lint.SafeFix,
	Check: func(p *lint.Pass) {
		d, ok := p.Value["description"].(string)
		if ok && d != strings.TrimSpace(d) {
			p.ReportFix("/description", safeFix("trim", manifest.Edit{Op: manifest.Replace, Pointer: "/description", Value: strings.TrimSpace(d)}), "description has surrounding spaces")
		}
	}}

var endWithPeriod = &lint.Rule{ID: "period", Packs: []string{"mcp"}, Severity: lint.Info, Fix: lint.SafeFix,
	Check: func(p *lint.Pass) {
		d, ok := p.Value["description"].(string)
		if ok && !strings.HasSuffix(strings.TrimSpace(d), ".") {
			p.ReportFix("/description", safeFix("add a period", manifest.Edit{Op: manifest.Replace, Pointer: "/description", Value: strings.TrimRight(d, " ") + "."}), "description does not end with a period")
		}
	}}

var schemaPresent = &lint.Rule{ID: "schema-present", Packs: []string{"mcp"}, Severity: lint.Error, Fix: lint.SafeFix,
	Check: func(p *lint.Pass) {
		if _, ok := p.Value["inputSchema"]; !ok {
			p.ReportFix("", safeFix("add an empty schema", manifest.Edit{Op: manifest.Add, Pointer: "/inputSchema", Value: map[string]any{}}), "no inputSchema")
		}
	}}

var typeObject = &lint.Rule{ID: "type-object", Packs: []string{"mcp"}, Severity: lint.Error, Fix: lint.SafeFix,
	Check: func(p *lint.Pass) {
		if s, ok := p.Value["inputSchema"].(map[string]any); ok && s["type"] == nil {
			p.ReportFix("/inputSchema", safeFix("add type", manifest.Edit{Op: manifest.Add, Pointer: "/inputSchema/type", Value: "object"}), "no type")
		}
	}}

var propertiesPresent = &lint.Rule{ID: "properties-present", Packs: []string{"mcp"}, Severity: lint.Warning, Fix: lint.SafeFix,
	Check: func(p *lint.Pass) {
		if s, ok := p.Value["inputSchema"].(map[string]any); ok && s["properties"] == nil {
			p.ReportFix("/inputSchema", safeFix("add properties", manifest.Edit{Op: manifest.Add, Pointer: "/inputSchema/properties", Value: map[string]any{}}), "no properties")
		}
	}}

// bump never settles: each round sets a number one higher.
var bump = &lint.Rule{ID: "bump", Packs: []string{"mcp"}, Severity: lint.Info, Fix: lint.SafeFix,
	Check: func(p *lint.Pass) {
		if n, ok := p.Value["version"].(json.Number); ok {
			i, _ := n.Int64()
			p.ReportFix("/version", safeFix("bump", manifest.Edit{Op: manifest.Replace, Pointer: "/version", Value: i + 1}), "version %d is not the next one", i)
		}
	}}

var dropExtra = &lint.Rule{ID: "drop-extra", Packs: []string{"mcp"}, Severity: lint.Warning, Fix: lint.UnsafeFix,
	Check: func(p *lint.Pass) {
		if _, ok := p.Value["extra"]; ok {
			p.ReportFix("/extra", &lint.Fix{Message: "remove", Edits: []manifest.Edit{{Op: manifest.Remove, Pointer: "/extra"}}}, "extra member")
		}
	}}

// selfOverlap's fix has two edits at one place: Apply can only take one.
var selfOverlap = &lint.Rule{ID: "self-overlap", Packs: []string{"mcp"}, Severity: lint.Info, Fix: lint.SafeFix,
	Check: func(p *lint.Pass) {
		if p.Value["title"] == "x" {
			p.ReportFix("/title", safeFix("retitle",
				manifest.Edit{Op: manifest.Replace, Pointer: "/title", Value: "A"},
				manifest.Edit{Op: manifest.Replace, Pointer: "/title", Value: "B"}), "title x")
		}
	}}

// aliasA and aliasB fix the same bytes of a plugin contract's schema, one
// through /inputSchema and one through the member's own name.
var aliasA = &lint.Rule{ID: "alias-a", Packs: []string{"mcp"}, Severity: lint.Info, Fix: lint.SafeFix,
	Check: func(p *lint.Pass) {
		if s, ok := p.Value["inputSchema"].(map[string]any); ok && s["type"] == "string" {
			p.ReportFix("/inputSchema/type", safeFix("object", manifest.Edit{Op: manifest.Replace, Pointer: "/inputSchema/type", Value: "object"}), "type string")
		}
	}}

var aliasB = &lint.Rule{ID: "alias-b", Packs: []string{"mcp"}, Severity: lint.Info, Fix: lint.SafeFix,
	Check: func(p *lint.Pass) {
		if s, ok := p.Value["inputSchema"].(map[string]any); ok && s["type"] == "string" && p.Tool.SchemaKey == "schema" {
			p.ReportFix("/inputSchema/type", safeFix("number", manifest.Edit{Op: manifest.Replace, Pointer: "/schema/type", Value: "number"}), "type string")
		}
	}}

// toUpper and toLower undo each other's fix of the title.
var toUpper = &lint.Rule{ID: "to-upper", Packs: []string{"mcp"}, Severity: lint.Info, Fix: lint.SafeFix,
	Check: func(p *lint.Pass) {
		if t, ok := p.Value["title"].(string); ok && t != strings.ToUpper(t) {
			p.ReportFix("/title", safeFix("upper", manifest.Edit{Op: manifest.Replace, Pointer: "/title", Value: strings.ToUpper(t)}), "title not in upper case")
		}
	}}

var toLower = &lint.Rule{ID: "to-lower", Packs: []string{"mcp"}, Severity: lint.Info, Fix: lint.SafeFix,
	Check: func(p *lint.Pass) {
		if t, ok := p.Value["title"].(string); ok && t != strings.ToLower(t) {
			p.ReportFix("/title", safeFix("lower", manifest.Edit{Op: manifest.Replace, Pointer: "/title", Value: strings.ToLower(t)}), "title not in lower case")
		}
	}}

// counting returns a rule that counts how often each tool is checked.
func counting(n *atomic.Int32) *lint.Rule {
	return &lint.Rule{ID: "count", Packs: []string{"mcp"}, Check: func(*lint.Pass) { n.Add(1) }}
}

type fixCase struct {
	name    string
	rules   []*lint.Rule
	unsafe  bool
	src     string
	want    string
	applied int
	// fixed counts the findings of the first lint that were fixed, when
	// it is not 0.
	fixed int
	// checks counts the tools Fix checked: every tool in its first round,
	// then those the last round's fixes changed.
	checks int
	remain []string // rules of the findings left
	// oscillating are the rules Fix blames for not converging.
	oscillating []string
}

func TestFixLoop(t *testing.T) {
	for _, tc := range []fixCase{{
		name:    "nothing to fix",
		rules:   []*lint.Rule{trimDescription, typeObject},
		src:     `[{"name":"a","description":"ok","inputSchema":{"type":"object"}}]`,
		want:    `[{"name":"a","description":"ok","inputSchema":{"type":"object"}}]`,
		applied: 0, checks: 1,
	}, {
		name:  "independent fixes in one round",
		rules: []*lint.Rule{trimDescription, typeObject},
		src: `[{"name":"a","description":" a ","inputSchema":{}},
{"name":"b","inputSchema":{"properties":{}}},
{"name":"c","description":"c  "}]`,
		want: `[{"name":"a","description":"a","inputSchema":{"type":"object"}},
{"name":"b","inputSchema":{"properties":{},"type":"object"}},
{"name":"c","description":"c"}]`,
		applied: 4, checks: 6, fixed: 4,
	}, {
		name:    "fixes of one value take turns",
		rules:   []*lint.Rule{trimDescription, endWithPeriod},
		src:     `{"name":"a","description":"  Reads a file  "}`,
		want:    `{"name":"a","description":"Reads a file."}`,
		applied: 2, checks: 3, fixed: 2,
	}, {
		name:    "adds to one object take turns",
		rules:   []*lint.Rule{typeObject, propertiesPresent},
		src:     `{"name":"a","inputSchema":{"required":[]}}`,
		want:    `{"name":"a","inputSchema":{"required":[],"properties":{},"type":"object"}}`,
		applied: 2, checks: 3,
	}, {
		name:    "a fix uncovers others",
		rules:   []*lint.Rule{schemaPresent, typeObject, propertiesPresent},
		src:     "{\n  \"name\": \"a\"\n}\n",
		want:    "{\n  \"name\": \"a\",\n  \"inputSchema\": {\"properties\": {}, \"type\": \"object\"}\n}\n",
		applied: 3, checks: 4,
		// The first lint found only the missing schema; the two fixes of
		// what its fix uncovered are part of fixing it.
		fixed: 1,
	}, {
		name:    "a fix that never settles stops after MaxFixRounds",
		rules:   []*lint.Rule{bump},
		src:     `{"name":"a","version":0}`,
		want:    `{"name":"a","version":10}`,
		applied: lint.MaxFixRounds, checks: lint.MaxFixRounds + 1,
		remain: []string{"bump"}, oscillating: []string{"bump"},
	}, {
		name:    "fixes that undo each other are named",
		rules:   []*lint.Rule{toUpper, toLower, trimDescription},
		src:     `[{"name":"a","title":"x"},{"name":"b","description":" b"}]`,
		want:    `[{"name":"a","title":"x"},{"name":"b","description":"b"}]`,
		applied: lint.MaxFixRounds + 1, checks: lint.MaxFixRounds + 1 + 2,
		remain: []string{"to-upper"}, oscillating: []string{"to-lower", "to-upper"},
	}, {
		name:  "a tool no fix changed is not checked again, and its findings move",
		rules: []*lint.Rule{schemaPresent, typeObject, propertiesPresent, dropExtra},
		src:   "[\n  {\"name\": \"a\"},\n  {\"name\": \"b\", \"inputSchema\": {\"type\": \"object\", \"properties\": {}}, \"extra\": 1}\n]\n",
		want: "[\n  {\"name\": \"a\", \"inputSchema\": {\"properties\": {}, \"type\": \"object\"}},\n" +
			"  {\"name\": \"b\", \"inputSchema\": {\"type\": \"object\", \"properties\": {}}, \"extra\": 1}\n]\n",
		applied: 3, checks: 5,
		remain: []string{"drop-extra"},
	}, {
		name:    "unsafe fixes wait for permission",
		rules:   []*lint.Rule{dropExtra, trimDescription},
		src:     `{"name":"a","description":" d","extra":1}`,
		want:    `{"name":"a","description":"d","extra":1}`,
		applied: 1, checks: 2,
		remain: []string{"drop-extra"},
	}, {
		name:   "unsafe fixes with permission",
		rules:  []*lint.Rule{dropExtra, trimDescription},
		unsafe: true,
		src:    `{"name":"a","description":" d","extra":1}`,
		want:   `{"name":"a","description":"d"}`,
		// A removal and a replacement in one object wait for each other.
		applied: 2, checks: 3,
	}, {
		name:    "a fix whose own edits overlap is never applied",
		rules:   []*lint.Rule{selfOverlap, trimDescription},
		src:     `[{"name":"a","title":"x"},{"name":"b","description":" b"}]`,
		want:    `[{"name":"a","title":"x"},{"name":"b","description":"b"}]`,
		applied: 1, checks: 3,
		remain: []string{"self-overlap"},
	}, {
		name:    "fixes that collide in bytes but not by pointer take turns",
		rules:   []*lint.Rule{aliasA, aliasB, trimDescription},
		src:     `[{"name":"a","schema":{"type":"string"}},{"name":"b","description":" b"}]`,
		want:    `[{"name":"a","schema":{"type":"object"}},{"name":"b","description":"b"}]`,
		applied: 2, checks: 4,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			var checks atomic.Int32
			rules := append([]*lint.Rule{counting(&checks)}, tc.rules...)
			// FixEdits: the remaining fixes keep their edits, unsafe ones
			// too, as for SARIF (see below for a run without).
			l := newLinter(t, rules, lint.Config{UnsafeFixes: tc.unsafe, FixEdits: true})
			m := load(t, tc.src)
			res, err := l.Fix(m)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, string(res.Src)); diff != "" {
				t.Errorf("fixed (-want +got):\n%s", diff)
			}
			if res.Applied != tc.applied {
				t.Errorf("Applied = %d, want %d", res.Applied, tc.applied)
			}
			if tc.fixed != 0 && res.Fixed != tc.fixed {
				t.Errorf("Fixed = %d, want %d", res.Fixed, tc.fixed)
			}
			if n := int(checks.Load()); n != tc.checks {
				t.Errorf("checked %d tools, want %d", n, tc.checks)
			}
			// The findings left are those of a lint of the result, though
			// Fix did not check again the tools it did not change.
			fresh, err := newLinter(t, rules, lint.Config{UnsafeFixes: tc.unsafe, FixEdits: true}).Lint(res.Manifest)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(fresh, res.Remaining, cmpopts.IgnoreUnexported(lint.Fix{})); diff != "" {
				t.Errorf("remaining findings differ from a fresh lint (-fresh +got):\n%s", diff)
			}
			// Without FixEdits the result is the same, but the fixes Fix
			// may not apply have no edits: building them would be waste.
			lean, err := newLinter(t, rules, lint.Config{UnsafeFixes: tc.unsafe}).Fix(load(t, tc.src))
			if err != nil {
				t.Fatal(err)
			}
			if string(lean.Src) != string(res.Src) || lean.Applied != res.Applied || len(lean.Remaining) != len(res.Remaining) {
				t.Fatalf("without FixEdits: %d applied, %d remaining, source %s", lean.Applied, len(lean.Remaining), lean.Src)
			}
			for i, d := range lean.Remaining {
				full := res.Remaining[i]
				if f := d.Fix; f != nil && !f.Safe && !tc.unsafe {
					if len(f.TextEdits) > 0 {
						t.Errorf("%s: a fix Fix may not apply has edits", d.Rule)
					}
					ff := *full.Fix
					ff.Edits, ff.TextEdits = f.Edits, f.TextEdits
					full.Fix = &ff
				}
				if diff := cmp.Diff(full, d, cmpopts.IgnoreUnexported(lint.Fix{})); diff != "" {
					t.Errorf("without FixEdits, finding %d (-with +without):\n%s", i, diff)
				}
			}
			var remain []string
			for _, d := range res.Remaining {
				remain = append(remain, d.Rule)
			}
			if diff := cmp.Diff(tc.remain, remain); diff != "" {
				t.Errorf("remaining (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.oscillating, res.Oscillating); diff != "" {
				t.Errorf("oscillating (-want +got):\n%s", diff)
			}
			if string(res.Manifest.Src) != string(res.Src) || res.Manifest.Path != "m.json" {
				t.Error("the result's manifest is not loaded from its bytes")
			}
			// The fixed output is a fixed point unless a rule never settles.
			if tc.remain == nil {
				again, err := l.Fix(res.Manifest)
				if err != nil {
					t.Fatal(err)
				}
				if again.Applied != 0 || string(again.Src) != string(res.Src) {
					t.Errorf("fixing again changes the output: %s", again.Src)
				}
			}
		})
	}
}

func TestFixErrors(t *testing.T) {
	badPointer := &lint.Rule{ID: "bad-pointer", Packs: []string{"mcp"}, Check: func(p *lint.Pass) {
		p.ReportFix("", safeFix("x", manifest.Edit{Op: manifest.Replace, Pointer: "/nope", Value: 1}), "x")
	}}
	_, err := newLinter(t, []*lint.Rule{badPointer}, lint.Config{}).Fix(load(t, `[{"name":"a"}]`))
	if err == nil || err.Error() != `apply fixes: m.json: tool "a": replace /nope: no value at /nope` {
		t.Errorf("a fix at a missing pointer: %v", err)
	}

	breaksShape := &lint.Rule{ID: "breaks-shape", Packs: []string{"mcp"}, Check: func(p *lint.Pass) {
		p.ReportFix("", safeFix("x", manifest.Edit{Op: manifest.Replace, Pointer: "", Value: "tool"}), "x")
	}}
	_, err = newLinter(t, []*lint.Rule{breaksShape}, lint.Config{}).Fix(load(t, `[{"name":"a"}]`))
	if err == nil || !strings.HasPrefix(err.Error(), "internal error: fixing m.json produced a manifest that does not load (m.json:1:2: tool 0 is a string, not an object)") {
		t.Errorf("a fix that breaks the manifest: %v", err)
	}

	deep, err := manifest.Limits{Depth: 2}.Load("m.yaml", []byte("tools:\n  - name: a\n    x: &d {a: 1}\n    y: {b: {c: *d}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = newLinter(t, []*lint.Rule{trimDescription}, lint.Config{}).Fix(deep)
	var e *manifest.Error
	if !errors.As(err, &e) {
		t.Errorf("a tool that does not decode: %v", err)
	}
}

// TestFixKeepsOtherBytes checks that the fix loop leaves every byte outside
// its edits alone, across rounds.
func TestFixKeepsOtherBytes(t *testing.T) {
	src := "{\"tools\": [\n" +
		"    {\"name\":   \"a\",  \"description\": \" spaced \",   \"inputSchema\": {\"properties\" : {}}},\n" +
		"    {\"name\": \"untouched\", \"inputSchema\": {\"type\": \"object\", \"properties\": {\"n\": {\"type\": \"number\", \"minimum\": 1.50e0}}}}\n" +
		"], \"nextCursor\": \"abc\"}\n"
	l := newLinter(t, []*lint.Rule{trimDescription, endWithPeriod, typeObject}, lint.Config{})
	res, err := l.Fix(load(t, src))
	if err != nil {
		t.Fatal(err)
	}
	want := "{\"tools\": [\n" +
		"    {\"name\":   \"a\",  \"description\": \"spaced.\",   \"inputSchema\": {\"properties\" : {}, \"type\": \"object\"}},\n" +
		"    {\"name\": \"untouched\", \"inputSchema\": {\"type\": \"object\", \"properties\": {\"n\": {\"type\": \"number\", \"minimum\": 1.50e0}}}}\n" +
		"], \"nextCursor\": \"abc\"}\n"
	if diff := cmp.Diff(want, string(res.Src)); diff != "" {
		t.Errorf("fixed (-want +got):\n%s", diff)
	}
}
