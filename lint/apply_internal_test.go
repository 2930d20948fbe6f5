package lint

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcplint/mcplint/manifest"
)

// TestApplyWhole checks how a round applies fixes whose edits collide in
// bytes: a fix is applied whole or waits.
func TestApplyWhole(t *testing.T) {
	m, err := manifest.Load("m.json", []byte(`{"name":"t","p":{"s":1},"q":{"r":2},"z":3}`))
	if err != nil {
		t.Fatal(err)
	}
	tool := m.Tools[0]
	fix := func(edits ...manifest.Edit) []manifest.ToolEdit {
		var g []manifest.ToolEdit
		for _, e := range edits {
			g = append(g, manifest.ToolEdit{Tool: tool, Edit: e})
		}
		return g
	}
	rep := func(ptr string, v any) manifest.Edit {
		return manifest.Edit{Op: manifest.Replace, Pointer: ptr, Value: v}
	}
	for _, tc := range []struct {
		name   string
		groups [][]manifest.ToolEdit
		want   string
		kept   []int
	}{{
		name:   "no collision",
		groups: [][]manifest.ToolEdit{fix(rep("/p/s", 5)), fix(rep("/q/r", 6), rep("/z", 7))},
		want:   `{"name":"t","p":{"s":5},"q":{"r":6},"z":7}`,
		kept:   []int{0, 1},
	}, {
		name:   "the later fix loses an edit and waits",
		groups: [][]manifest.ToolEdit{fix(rep("/p", 0)), fix(rep("/p/s", 5), rep("/z", 7)), fix(rep("/q/r", 6))},
		want:   `{"name":"t","p":0,"q":{"r":6},"z":3}`,
		kept:   []int{0, 2},
	}, {
		name: "crossing fixes: each loses an edit, the first goes alone",
		groups: [][]manifest.ToolEdit{
			fix(rep("/p", 0), rep("/q/r", 6)),
			fix(rep("/q", 1), rep("/p/s", 5)),
		},
		want: `{"name":"t","p":0,"q":{"r":6},"z":3}`,
		kept: []int{0},
	}, {
		name:   "a fix that collides with itself is never applied",
		groups: [][]manifest.ToolEdit{fix(rep("/z", 1), rep("/z", 2))},
		kept:   nil,
	}, {
		name:   "a fix that collides with itself is passed over",
		groups: [][]manifest.ToolEdit{fix(rep("/z", 1), rep("/z", 2)), fix(rep("/p", 0), rep("/q", 1)), fix(rep("/p/s", 5))},
		want:   `{"name":"t","p":0,"q":1,"z":3}`,
		kept:   []int{1},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			out, kept, err := applyWhole(m, tc.groups)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, string(out)); diff != "" {
				t.Errorf("output (-want +got):\n%s", diff)
			}
			var want [][]manifest.ToolEdit
			for _, i := range tc.kept {
				want = append(want, tc.groups[i])
			}
			if diff := cmp.Diff(want, kept, cmp.Comparer(func(a, b *manifest.Tool) bool { return a == b })); diff != "" {
				t.Errorf("fixes applied (-want +got):\n%s", diff)
			}
		})
	}
}
