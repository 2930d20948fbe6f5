package lint

import (
	"context"
	"crypto/sha256"
	"fmt"
	"maps"
	"slices"

	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/pointer"
)

// MaxFixRounds bounds the apply/re-lint loop. Each round applies every fix
// that does not overlap another; fixes that uncover or collide with others
// are taken up in the next round.
const MaxFixRounds = 10

// FixResult is the outcome of Fix.
type FixResult struct {
	// Src is the corrected source.
	Src []byte
	// Manifest is the corrected manifest, loaded from Src.
	Manifest *manifest.Manifest
	// Applied counts the fixes applied, over every round.
	Applied int
	// Fixed counts the findings of the first lint, the one `mcplint lint`
	// reports, whose fixes were applied: the number a run of lint calls
	// fixable. The fixes of findings that fixing uncovered (an object root
	// added, then its "properties") are part of the finding that led to
	// them and not counted again.
	Fixed int
	// Remaining are the findings of the final lint of Src.
	Remaining []Diagnostic
	// Oscillating lists, sorted, the rules whose fixes kept changing the
	// source when Fix gave up without reaching a fixed point: those whose
	// fixes brought the source back to an earlier state, or, when none
	// did, those with fixes still to apply after MaxFixRounds rounds. It is
	// empty when Fix converged.
	Oscillating []string
}

// Fix applies fixes to a fixed point: lint, apply every eligible fix that
// does not overlap another, load the result, repeat. Safe fixes are eligible,
// unsafe ones too with Config.UnsafeFixes. A fix is applied whole or not at
// all: one whose edits cannot all be made together is never applied, and
// its finding remains. The fixes of the remaining findings have their edits
// when they are eligible, and all of them when Config.FixEdits is set (for
// SARIF): building the edits of fixes that will not be applied was a
// third of a fix run.
func (l *Linter) Fix(m *manifest.Manifest) (*FixResult, error) {
	fl := *l
	fl.applicableEdits = !l.Config.FixEdits
	fl.Config.FixEdits = true
	res := &FixResult{}
	// The sources met, by round, and the rules each round applied: a source
	// met again means fixes undo each other.
	seen := map[[sha256.Size]byte]int{sha256.Sum256(m.Src): 0}
	var appliedBy [][]string
	cycleFrom := -1
	// Each round lints again only the tools the last round's fixes changed.
	re := &rerun{}
	// The findings of the first lint, and those of them fixed.
	type finding struct {
		rule, pointer string
		tool          int
	}
	first, fixed := map[finding]bool{}, map[finding]bool{}
	for round := 0; ; round++ {
		var diags []Diagnostic
		err := fl.lint(context.Background(), m, re, func(ds []Diagnostic) { diags = append(diags, ds...) })
		if err != nil {
			return nil, err
		}
		picked, err := fl.pickFixes(diags)
		if err != nil {
			return nil, fmt.Errorf("apply fixes: %w", err)
		}
		if round == 0 {
			for _, d := range diags {
				first[finding{d.Rule, d.Pointer, d.ToolIndex}] = true
			}
		}
		if len(picked) == 0 || round == MaxFixRounds {
			res.Src, res.Manifest, res.Remaining = m.Src, m, diags
			if len(picked) > 0 {
				res.Oscillating = oscillating(appliedBy, cycleFrom, picked)
			}
			return res, nil
		}
		var edits []manifest.TextEdit
		rules := map[string]bool{}
		for _, d := range picked {
			edits = append(edits, d.Fix.TextEdits...)
			rules[d.Rule] = true
		}
		// A fix's edits are in source order and fixes do not overlap, so a
		// stable sort keeps an insertion after the edit it follows.
		slices.SortStableFunc(edits, func(a, b manifest.TextEdit) int { return a.Start - b.Start })
		out := m.ApplyText(edits)
		next, err := m.Reload(out)
		if err != nil {
			return nil, fmt.Errorf("internal error: fixing %s produced a manifest that does not load (%v); please report this", m.Path, err)
		}
		res.Applied += len(picked)
		for _, d := range picked {
			if f := (finding{d.Rule, d.Pointer, d.ToolIndex}); first[f] && !fixed[f] {
				fixed[f] = true
				res.Fixed++
			}
		}
		appliedBy = append(appliedBy, slices.Sorted(maps.Keys(rules)))
		sum := sha256.Sum256(out)
		if r, ok := seen[sum]; ok && cycleFrom < 0 {
			cycleFrom = r
		}
		seen[sum] = round + 1
		m = next
	}
}

// oscillating names the rules to blame when Fix gives up: those that
// applied fixes from the round whose source came back (cycleFrom, -1 when
// none did), or else those whose fixes were still to apply.
func oscillating(appliedBy [][]string, cycleFrom int, pending []*Diagnostic) []string {
	set := map[string]bool{}
	if cycleFrom >= 0 {
		for _, rules := range appliedBy[cycleFrom:] {
			for _, r := range rules {
				set[r] = true
			}
		}
	} else {
		for _, d := range pending {
			set[d.Rule] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}

func (l *Linter) eligible(d *Diagnostic) bool {
	return d.Fix != nil && (d.Fix.Safe || l.Config.UnsafeFixes) && (len(d.Fix.TextEdits) > 0 || d.Fix.err != nil)
}

// pickFixes chooses, in diagnostic order, the fixes whose edits do not
// overlap those already chosen, neither in the tool (see clash) nor in the
// bytes of the source. A fix whose edits could not be made into edits of
// the source at all is an error.
func (l *Linter) pickFixes(diags []Diagnostic) ([]*Diagnostic, error) {
	type chosen struct {
		edits editTree
		text  textEdits
	}
	taken := map[int]*chosen{} // tool index -> edits chosen
	var picked []*Diagnostic
	for i := range diags {
		d := &diags[i]
		if !l.eligible(d) {
			continue
		}
		if d.Fix.err != nil {
			return nil, d.Fix.err
		}
		c := taken[d.ToolIndex]
		if c == nil {
			c = &chosen{}
			taken[d.ToolIndex] = c
		}
		if slices.ContainsFunc(d.Fix.Edits, c.edits.clashes) || slices.ContainsFunc(d.Fix.TextEdits, c.text.overlapsAny) {
			continue
		}
		for _, e := range d.Fix.Edits {
			c.edits.add(e)
		}
		for _, e := range d.Fix.TextEdits {
			c.text.add(e)
		}
		picked = append(picked, d)
	}
	return picked, nil
}

// An editTree holds the edits chosen in a tool, by the reference tokens of
// their pointers, so that whether an edit clashes with any of them takes
// one walk down its pointer, whatever their number: a deeply nested schema
// has a fix on every level.
//
// Two edits of a tool clash, and must wait for each other, when one is
// within the other, or when they change the members of the same container
// and one of them adds or removes a member. A fix computes its edits from
// the tool as it is, so two fixes rewriting one object's members (adding
// "anyOf" beside a "type" the other rewrites, say) could together say what
// neither meant.
type editTree struct {
	children map[string]*editTree
	here     bool // an edit of this very place was chosen
	// Edits chosen among the children: all of them, and those that add
	// or remove a member.
	childEdits, childStructural int
}

// walk returns the tree's node for p and its parent (nil for the root),
// making them when make is set; nil for either that does not exist. It
// stops at the first node above p for which stop is true, and returns nil.
func (t *editTree) walk(p string, make bool, stop func(*editTree) bool) (node, parent *editTree) {
	node = t
	for tok, last := range pointer.Tokens(p) {
		if stop != nil && stop(node) {
			return nil, nil
		}
		next := node.children[tok]
		if next == nil {
			if !make {
				if last {
					return nil, node // the parent exists, p does not
				}
				return nil, nil
			}
			if node.children == nil {
				node.children = map[string]*editTree{}
			}
			next = &editTree{}
			node.children[tok] = next
		}
		node, parent = next, node
	}
	return node, parent
}

// clashes reports whether e clashes with an edit chosen.
func (t *editTree) clashes(e manifest.Edit) bool {
	ancestor := false
	node, parent := t.walk(e.Pointer, false, func(n *editTree) bool {
		ancestor = ancestor || n.here
		return ancestor
	})
	switch {
	case ancestor:
		return true // a chosen edit contains e
	case node != nil && (node.here || len(node.children) > 0):
		return true // e is chosen, or contains a chosen edit
	case parent == nil:
		return false
	case e.Op != manifest.Replace:
		return parent.childEdits > 0
	}
	return parent.childStructural > 0
}

func (t *editTree) add(e manifest.Edit) {
	node, parent := t.walk(e.Pointer, true, nil)
	node.here = true
	if parent != nil {
		parent.childEdits++
		if e.Op != manifest.Replace {
			parent.childStructural++
		}
	}
}

// overlaps reports whether two edits of the source touch the same bytes, or
// start at the same offset (two insertions there, or one before a
// replacement, have no order of their own).
func overlaps(a, b manifest.TextEdit) bool {
	return a.Start == b.Start || a.Start < b.End && b.Start < a.End
}
