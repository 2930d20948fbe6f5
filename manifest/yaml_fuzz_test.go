package manifest

import (
	"encoding/json"
	"sort"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpfit/mcplint/pointer"
	yamlv4 "go.yaml.in/yaml/v4"
)

// FuzzYAMLEdits checks, for any source that loads, that every value decodes,
// every pointer is located, and every edit that is spliced gives a source
// that loads and decodes to the edited value.
func FuzzYAMLEdits(f *testing.F) {
	for _, s := range []string{blockSrc, flowSrc, seqSrc, aliasSrc,
		"name: a\ninputSchema: {type: object}\n", "- name: a\n  x: |\n    t\n  y: 'q'\n",
		"tools:\n- name: a\n  inputSchema:\n    k:\n    - 1\n    -\n    - [a, {b: c}]\n",
		chatYAML, anthropicYAML, geminiYAML} {
		f.Add(s)
	}
	values := []any{"yes", obj{"a b": arr{json.Number("1"), "x: y", nil, true}}, arr{obj{"k": "v"}, "s"}, "multi\nline", obj{}, arr{}}
	f.Fuzz(func(t *testing.T, src string) {
		// Only YAML that another parser accepts too: the parser this package
		// uses is lenient with some invalid YAML.
		var other any
		if yamlv4.Unmarshal([]byte(src), &other) != nil {
			return
		}
		m, err := Load("f.yaml", []byte(src))
		if err != nil {
			return
		}
		for _, tool := range m.Tools {
			if _, err := tool.Value(); err != nil {
				return
			}
		}
		if len(m.Tools) == 0 {
			return
		}
		tool := m.Tools[0]
		before, _ := tool.Value()
		if _, ok := before.(map[string]any)["schema"]; ok {
			return // which member is the input schema could change
		}
		if doc, err := m.yaml.decode(m.yaml.bodies[0]); err != nil || !sameJSON(doc, other) {
			return // the parsers read the source differently
		} else if raw, _ := json.Marshal(doc); len(raw) > 1<<16 {
			return // aliases expand it: slow to edit 48 times, and nothing new
		}
		var ptrs []string
		for p := range tool.index().nodes {
			ptrs = append(ptrs, p)
			tool.Locate(p)
		}
		sort.Strings(ptrs)
		if len(ptrs) > 12 {
			ptrs = ptrs[:12]
		}
		for i, p := range ptrs {
			v := values[i%len(values)]
			edits := []Edit{rep(p, v), add(p+"/-", v), add(p+"/zz", v)}
			if p == "" {
				edits[0] = rep("", obj{"name": "z", "x": v}) // a tool stays an object
			}
			if p != "" && p != "/name" {
				edits = append(edits, del(p))
			}
			for _, e := range edits {
				out, skipped, err := m.Apply([]ToolEdit{{Tool: tool, Edit: e}})
				if err != nil || skipped[0] {
					continue
				}
				if err := yamlv4.Unmarshal(out, &other); err != nil {
					t.Fatalf("%s %s: another parser refuses the output: %v\n--- in:\n%s\n--- out:\n%s", e.Op, e.Pointer, err, src, out)
				}
				m2, err := Load("f.yaml", out)
				if err != nil {
					// Valid YAML that the parser refuses (an empty block
					// scalar before a less indented comment, for one).
					t.Logf("%s %s: the output does not load: %v\n--- in:\n%s\n--- out:\n%s", e.Op, e.Pointer, err, src, out)
					continue
				}
				if m2.Shape != m.Shape && (m.Shape.Foreign() || m2.Shape.Foreign()) {
					continue // the edit changed what tells another consumer's format
				}
				got, err := m2.Tools[0].Value()
				if err != nil {
					t.Fatalf("%s %s: %v", e.Op, e.Pointer, err)
				}
				want, _ := tool.Value()
				if !applies(want, e) {
					continue
				}
				want = patched(t, want, []Edit{e})
				if diff := cmp.Diff(want, got); diff != "" {
					t.Fatalf("%s %s: value (-want +got):\n%s\n--- in:\n%s\n--- out:\n%s", e.Op, e.Pointer, diff, src, out)
				}
			}
		}
		_ = before
	})
}

// applies says whether the oracle patched can apply e to v: the edits the
// splicer refuses never reach it.
func applies(v any, e Edit) bool {
	toks := pointer.Split(e.Pointer)
	for i, k := range toks {
		last := i == len(toks)-1
		switch x := v.(type) {
		case map[string]any:
			c, ok := x[k]
			if !ok && !(last && e.Op == Add) {
				return false
			}
			v = c
		case []any:
			if last && e.Op == Add && k == "-" {
				return true
			}
			n, err := strconv.Atoi(k)
			if err != nil || n < 0 || n >= len(x) {
				return false
			}
			v = x[n]
		default:
			return false
		}
	}
	return true
}

// sameJSON says whether two decoded values are the same JSON value, numbers
// compared as float64.
func sameJSON(a, b any) bool {
	canon := func(v any) (any, bool) {
		raw, err := json.Marshal(v)
		if err != nil {
			return nil, false
		}
		var out any
		return out, json.Unmarshal(raw, &out) == nil
	}
	ca, ok1 := canon(a)
	cb, ok2 := canon(b)
	return ok1 && ok2 && cmp.Equal(ca, cb)
}
