package lint

import (
	"math/rand/v2"

	"github.com/mcpfit/mcplint/manifest"
)

// textEdits holds the text edits chosen in one tool, which overlap none of
// each other (see overlaps), in a treap ordered by start, so that whether
// a new edit overlaps any of them takes time in the logarithm of their
// number: comparing it with each, for a tool with a fix on each of 100,000
// properties, took time in their square. Disjoint edits sorted by start
// are sorted by end too, so an edit overlaps a chosen one only if it
// overlaps the last chosen one that starts before it ends, or starts where
// one starts.
type textEdits struct{ root *editNode }

type editNode struct {
	e    manifest.TextEdit
	prio uint64
	// kid[0] holds the edits that start before e, kid[1] the others: one
	// index for a side lets insertEdit rotate either way with one code.
	kid [2]*editNode
}

// overlapsAny reports whether e overlaps an edit of the set.
func (s *textEdits) overlapsAny(e manifest.TextEdit) bool {
	var before *editNode // the last edit that starts before e ends
	for n := s.root; n != nil; {
		switch {
		case n.e.Start == e.Start:
			return true
		case n.e.Start < e.End:
			before = n
			n = n.kid[1]
		default:
			n = n.kid[0]
		}
	}
	return before != nil && overlaps(e, before.e)
}

// add adds e, which overlaps none of the set.
func (s *textEdits) add(e manifest.TextEdit) {
	s.root = insertEdit(s.root, &editNode{e: e, prio: rand.Uint64()})
}

func insertEdit(n, x *editNode) *editNode {
	if n == nil {
		return x
	}
	side := 1
	if x.e.Start < n.e.Start {
		side = 0
	}
	c := insertEdit(n.kid[side], x)
	n.kid[side] = c
	if c.prio > n.prio {
		// Rotate c above n: n takes c's inner subtree on that side.
		n.kid[side], c.kid[1-side] = c.kid[1-side], n
		return c
	}
	return n
}
