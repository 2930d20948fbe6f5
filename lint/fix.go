package lint

import (
	"fmt"
	"strings"

	"github.com/mcplint/mcplint/manifest"
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
}

// Fix applies fixes to a fixed point: lint, apply every eligible fix that
// does not overlap another, load the result, repeat. Safe fixes are eligible,
// unsafe ones too with Config.UnsafeFixes. A fix is applied whole or not at
// all: one whose edits Apply cannot all make (they overlap each other) is
// never applied, and its finding remains.
func (l *Linter) Fix(m *manifest.Manifest) (*FixResult, error) {
	res := &FixResult{}
	for round := 0; ; round++ {
		diags, err := l.Lint(m)
		if err != nil {
			return nil, err
		}
		groups := l.pickFixes(m, diags)
		var out []byte
		if len(groups) > 0 && round < MaxFixRounds {
			out, groups, err = applyWhole(m, groups)
			if err != nil {
				return nil, fmt.Errorf("apply fixes: %w", err)
			}
		}
		if len(groups) == 0 || round == MaxFixRounds {
			res.Src, res.Manifest, res.Remaining = m.Src, m, diags
			return res, nil
		}
		next, err := m.Reload(out)
		if err != nil {
			return nil, fmt.Errorf("internal error: fixing %s produced a manifest that does not load (%v); please report this", m.Path, err)
		}
		res.Applied += len(groups)
		m = next
	}
}

// applyWhole applies as many of the fixes (one group of edits each) as it
// can whole, and returns the source and the fixes applied. The fixes were
// chosen not to overlap by pointer; if some still collide in bytes, the
// fixes that lost an edit wait for the next round and the others are
// applied. If every fix lost one, the first that applies alone is applied.
func applyWhole(m *manifest.Manifest, groups [][]manifest.ToolEdit) ([]byte, [][]manifest.ToolEdit, error) {
	out, whole, err := applyGroups(m, groups)
	if err != nil || allTrue(whole) {
		return out, groups, err
	}
	var kept [][]manifest.ToolEdit
	for i, g := range groups {
		if whole[i] {
			kept = append(kept, g)
		}
	}
	if len(kept) > 0 {
		if out, whole, err = applyGroups(m, kept); err != nil || allTrue(whole) {
			return out, kept, err
		}
	}
	for _, g := range groups {
		if out, whole, err = applyGroups(m, [][]manifest.ToolEdit{g}); err != nil || whole[0] {
			return out, [][]manifest.ToolEdit{g}, err
		}
	}
	return nil, nil, nil
}

// applyGroups applies the edits of all groups and reports which groups had
// every edit applied.
func applyGroups(m *manifest.Manifest, groups [][]manifest.ToolEdit) ([]byte, []bool, error) {
	var edits []manifest.ToolEdit
	for _, g := range groups {
		edits = append(edits, g...)
	}
	out, skipped, err := m.Apply(edits)
	if err != nil {
		return nil, nil, err
	}
	whole := make([]bool, len(groups))
	i := 0
	for gi, g := range groups {
		whole[gi] = true
		for range g {
			if skipped[i] {
				whole[gi] = false
			}
			i++
		}
	}
	return out, whole, nil
}

func allTrue(bs []bool) bool {
	for _, b := range bs {
		if !b {
			return false
		}
	}
	return true
}

func (l *Linter) eligible(d *Diagnostic) bool {
	return d.Fix != nil && len(d.Fix.Edits) > 0 && (d.Fix.Safe || l.Config.UnsafeFixes)
}

// pickFixes chooses, in diagnostic order, the fixes whose edits do not
// overlap those already chosen. It returns their edits, grouped by fix.
func (l *Linter) pickFixes(m *manifest.Manifest, diags []Diagnostic) [][]manifest.ToolEdit {
	taken := map[int][]manifest.Edit{} // tool index -> edits chosen
	var groups [][]manifest.ToolEdit
	for i := range diags {
		d := &diags[i]
		if !l.eligible(d) {
			continue
		}
		clash := false
		for _, e := range d.Fix.Edits {
			for _, o := range taken[d.ToolIndex] {
				clash = clash || overlaps(e, o)
			}
		}
		if clash {
			continue
		}
		t := m.Tools[d.ToolIndex]
		var g []manifest.ToolEdit
		for _, e := range d.Fix.Edits {
			taken[d.ToolIndex] = append(taken[d.ToolIndex], e)
			g = append(g, manifest.ToolEdit{Tool: t, Edit: e})
		}
		groups = append(groups, g)
	}
	return groups
}

// overlaps reports whether two edits may touch the same bytes: one is within
// the other, or they change the members of the same container (adding or
// removing a member rewrites the separators around it).
func overlaps(a, b manifest.Edit) bool {
	if within(a.Pointer, b.Pointer) || within(b.Pointer, a.Pointer) {
		return true
	}
	structural := a.Op != manifest.Replace || b.Op != manifest.Replace
	return structural && parent(a.Pointer) == parent(b.Pointer)
}

func within(p, anc string) bool {
	return p == anc || strings.HasPrefix(p, anc+"/")
}

func parent(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return ""
}
