package lint

import (
	"context"
	"crypto/sha256"
	"fmt"
	"maps"
	"slices"

	"github.com/mcplint/mcplint/manifest"
	"github.com/mcplint/mcplint/pointer"
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
	// Applied counts the fixes applied.
	Applied int
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
// its finding remains.
func (l *Linter) Fix(m *manifest.Manifest) (*FixResult, error) {
	fl := *l
	fl.Config.FixEdits = true
	res := &FixResult{}
	// The sources met, by round, and the rules each round applied: a source
	// met again means fixes undo each other.
	seen := map[[sha256.Size]byte]int{sha256.Sum256(m.Src): 0}
	var appliedBy [][]string
	cycleFrom := -1
	// Each round lints again only the tools the last round's fixes changed.
	re := &rerun{}
	for round := 0; ; round++ {
		diags, err := fl.lint(context.Background(), m, re)
		if err != nil {
			return nil, err
		}
		picked, err := fl.pickFixes(diags)
		if err != nil {
			return nil, fmt.Errorf("apply fixes: %w", err)
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
		edits []manifest.Edit
		text  []manifest.TextEdit
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
		if slices.ContainsFunc(d.Fix.Edits, func(e manifest.Edit) bool {
			return slices.ContainsFunc(c.edits, func(o manifest.Edit) bool { return clash(e, o) })
		}) || slices.ContainsFunc(d.Fix.TextEdits, func(e manifest.TextEdit) bool {
			return slices.ContainsFunc(c.text, func(o manifest.TextEdit) bool { return overlaps(e, o) })
		}) {
			continue
		}
		c.edits = append(c.edits, d.Fix.Edits...)
		c.text = append(c.text, d.Fix.TextEdits...)
		picked = append(picked, d)
	}
	return picked, nil
}

// clash reports whether two edits of a tool must wait for each other: one
// is within the other, or they change the members of the same container. A
// fix computes its edits from the tool as it is, so two fixes rewriting one
// object's members (adding "anyOf" beside a "type" the other rewrites, say)
// could together say what neither meant.
func clash(a, b manifest.Edit) bool {
	if pointer.Within(a.Pointer, b.Pointer) || pointer.Within(b.Pointer, a.Pointer) {
		return true
	}
	structural := a.Op != manifest.Replace || b.Op != manifest.Replace
	return structural && parentOf(a.Pointer) == parentOf(b.Pointer)
}

func parentOf(p string) string {
	parent, _ := pointer.Parent(p)
	return parent
}

// overlaps reports whether two edits of the source touch the same bytes, or
// start at the same offset (two insertions there, or one before a
// replacement, have no order of their own).
func overlaps(a, b manifest.TextEdit) bool {
	return a.Start == b.Start || a.Start < b.End && b.Start < a.End
}
