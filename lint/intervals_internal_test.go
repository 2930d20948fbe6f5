package lint

import (
	"math/rand/v2"
	"testing"

	"github.com/mcpfit/mcplint/manifest"
)

// TestTextEditsAgreeWithOverlaps: the set answers as comparing an edit
// with every chosen one does.
func TestTextEditsAgreeWithOverlaps(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for round := range 200 {
		var set textEdits
		var chosen []manifest.TextEdit
		for range 60 {
			start := r.IntN(200)
			e := manifest.TextEdit{Start: start, End: start + r.IntN(4)}
			brute := false
			for _, o := range chosen {
				brute = brute || overlaps(e, o)
			}
			if got := set.overlapsAny(e); got != brute {
				t.Fatalf("round %d: %v against %v: %v, want %v", round, e, chosen, got, brute)
			}
			if !brute {
				set.add(e)
				chosen = append(chosen, e)
			}
		}
	}
}

// TestTextEditsDepth: 100,000 edits chosen in a tool, in an order that
// would make a sorted list shift every time, keep the treap shallow: each
// question visits a few dozen edits, not a hundred thousand.
func TestTextEditsDepth(t *testing.T) {
	var set textEdits
	const n = 100000
	for i := n; i > 0; i-- {
		e := manifest.TextEdit{Start: 10 * i, End: 10*i + 5}
		if set.overlapsAny(e) {
			t.Fatalf("%v overlaps", e)
		}
		set.add(e)
	}
	var depth func(*editNode) int
	depth = func(n *editNode) int {
		if n == nil {
			return 0
		}
		return 1 + max(depth(n.kid[0]), depth(n.kid[1]))
	}
	if d := depth(set.root); d > 80 {
		t.Errorf("depth %d for %d edits", d, n)
	}
}
