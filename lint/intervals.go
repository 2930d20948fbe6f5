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
	e           manifest.TextEdit
	prio        uint64
	left, right *editNode
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
			n = n.right
		default:
			n = n.left
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
	if x.e.Start < n.e.Start {
		n.left = insertEdit(n.left, x)
		if n.left.prio > n.prio {
			l := n.left
			n.left, l.right = l.right, n
			return l
		}
		return n
	}
	n.right = insertEdit(n.right, x)
	if n.right.prio > n.prio {
		r := n.right
		n.right, r.left = r.left, n
		return r
	}
	return n
}
