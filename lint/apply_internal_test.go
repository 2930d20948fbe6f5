package lint

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpfit/mcplint/manifest"
)

// TestPickFixes checks how a round chooses fixes whose edits collide in
// bytes: a fix is applied whole or waits for the next round.
func TestPickFixes(t *testing.T) {
	m, err := manifest.Load("m.json", []byte(`{"name":"t","p":{"s":1},"q":{"r":2},"z":3}`))
	if err != nil {
		t.Fatal(err)
	}
	tool := m.Tools[0]
	l := &Linter{}
	fix := func(edits ...manifest.Edit) Diagnostic {
		te, whole, err := tool.TextEdits(edits)
		if err != nil {
			t.Fatal(err)
		}
		if !whole {
			te = nil
		}
		return Diagnostic{Fix: &Fix{Safe: true, Edits: edits, TextEdits: te, built: true}}
	}
	rep := func(ptr string, v any) manifest.Edit {
		return manifest.Edit{Op: manifest.Replace, Pointer: ptr, Value: v}
	}
	for _, tc := range []struct {
		name  string
		diags []Diagnostic
		want  string
		kept  []int
	}{{
		name:  "no collision",
		diags: []Diagnostic{fix(rep("/p/s", 5)), fix(rep("/q/r", 6), rep("/z", 7))},
		want:  `{"name":"t","p":{"s":5},"q":{"r":6},"z":7}`,
		kept:  []int{0, 1},
	}, {
		name:  "the later fix overlaps and waits, whole",
		diags: []Diagnostic{fix(rep("/p", 0)), fix(rep("/p/s", 5), rep("/z", 7)), fix(rep("/q/r", 6))},
		want:  `{"name":"t","p":0,"q":{"r":6},"z":3}`,
		kept:  []int{0, 2},
	}, {
		name:  "crossing fixes: the first goes alone",
		diags: []Diagnostic{fix(rep("/p", 0), rep("/q/r", 6)), fix(rep("/q", 1), rep("/p/s", 5))},
		want:  `{"name":"t","p":0,"q":{"r":6},"z":3}`,
		kept:  []int{0},
	}, {
		name:  "a fix that collides with itself is never applied",
		diags: []Diagnostic{fix(rep("/z", 1), rep("/z", 2))},
		want:  `{"name":"t","p":{"s":1},"q":{"r":2},"z":3}`,
	}, {
		name:  "a fix that collides with itself is passed over",
		diags: []Diagnostic{fix(rep("/z", 1), rep("/z", 2)), fix(rep("/p", 0), rep("/q", 1)), fix(rep("/p/s", 5))},
		want:  `{"name":"t","p":0,"q":1,"z":3}`,
		kept:  []int{1},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			picked, err := l.pickFixes(tc.diags)
			if err != nil {
				t.Fatal(err)
			}
			var kept []int
			var edits []manifest.TextEdit
			for _, d := range picked {
				kept = append(kept, slices.IndexFunc(tc.diags, func(x Diagnostic) bool { return x.Fix == d.Fix }))
				edits = append(edits, d.Fix.TextEdits...)
			}
			slices.SortStableFunc(edits, func(a, b manifest.TextEdit) int { return a.Start - b.Start })
			if diff := cmp.Diff(tc.kept, kept); diff != "" {
				t.Errorf("fixes applied (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.want, string(m.ApplyText(edits))); diff != "" {
				t.Errorf("output (-want +got):\n%s", diff)
			}
		})
	}
}
