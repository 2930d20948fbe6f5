package manifest

import (
	"slices"
	"testing"
)

func TestUnchanged(t *testing.T) {
	load := func(src string) *Manifest {
		t.Helper()
		m, err := Load("m.json", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	old := load(`{"tools": [{"name": "a"}, {"name": "b"}, {"name": "c"}]}`)
	for _, tc := range []struct {
		name  string
		src   string
		ok    bool
		same  []bool
		moved []int
	}{
		{"identical", `{"tools": [{"name": "a"}, {"name": "b"}, {"name": "c"}]}`, true, []bool{true, true, true}, []int{0, 0, 0}},
		{"one tool longer", `{"tools": [{"name": "a"}, {"name": "bb"}, {"name": "c"}]}`, true, []bool{true, false, true}, []int{0, 0, 1}},
		{"first tool shorter", `{"tools": [{"name":"a"}, {"name": "b"}, {"name": "c"}]}`, true, []bool{false, true, true}, []int{0, -1, -1}},
		{"bytes between tools", `{"tools": [{"name": "a"},  {"name": "b"}, {"name": "c"}]}`, false, nil, nil},
		{"bytes after the tools", `{"tools": [{"name": "a"}, {"name": "b"}, {"name": "c"}], "x": 1}`, false, nil, nil},
		{"a tool fewer", `{"tools": [{"name": "a"}, {"name": "b"}]}`, false, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			same, moved, ok := load(tc.src).Unchanged(old)
			if ok != tc.ok || !slices.Equal(same, tc.same) || !slices.Equal(moved, tc.moved) {
				t.Errorf("Unchanged = %v, %v, %v; want %v, %v, %v", same, moved, ok, tc.same, tc.moved, tc.ok)
			}
		})
	}
	y, err := Load("m.yaml", []byte("tools:\n  - name: a\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, ok := y.Unchanged(y); ok {
		t.Error("a YAML manifest compares as unchanged")
	}
}
