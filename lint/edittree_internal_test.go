package lint

import (
	"math/rand/v2"
	"testing"

	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/pointer"
)

// clashNaive is the rule editTree implements, edit against edit.
func clashNaive(a, b manifest.Edit) bool {
	if pointer.Within(a.Pointer, b.Pointer) || pointer.Within(b.Pointer, a.Pointer) {
		return true
	}
	pa, _ := pointer.Parent(a.Pointer)
	pb, _ := pointer.Parent(b.Pointer)
	return (a.Op != manifest.Replace || b.Op != manifest.Replace) && pa == pb
}

// TestEditTree checks editTree against the rule applied to every pair, on
// random edits of a small tree.
func TestEditTree(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	toks := []string{"a", "b", "c~1d", "0"}
	ops := []manifest.Op{manifest.Replace, manifest.Add, manifest.Remove}
	randomEdit := func() manifest.Edit {
		p := ""
		for range r.IntN(4) {
			p += "/" + toks[r.IntN(len(toks))]
		}
		return manifest.Edit{Op: ops[r.IntN(len(ops))], Pointer: p}
	}
	for range 2000 {
		var tree editTree
		var chosen []manifest.Edit
		for range r.IntN(6) {
			e := randomEdit()
			want := false
			for _, o := range chosen {
				want = want || clashNaive(e, o)
			}
			if got := tree.clashes(e); got != want {
				t.Fatalf("chosen %v: clashes(%v) = %v, want %v", chosen, e, got, want)
			}
			if !want {
				tree.add(e)
				chosen = append(chosen, e)
			}
		}
	}
}
