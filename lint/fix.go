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
// unsafe ones too with Config.UnsafeFixes.
func (l *Linter) Fix(m *manifest.Manifest) (*FixResult, error) {
	res := &FixResult{}
	for round := 0; ; round++ {
		diags, err := l.Lint(m)
		if err != nil {
			return nil, err
		}
		groups := l.pickFixes(m, diags)
		if len(groups) == 0 || round == MaxFixRounds {
			res.Src, res.Manifest, res.Remaining = m.Src, m, diags
			return res, nil
		}
		var edits []manifest.ToolEdit
		for _, g := range groups {
			edits = append(edits, g...)
		}
		n := len(groups)
		out, skipped, err := m.Apply(edits)
		if err != nil {
			return nil, fmt.Errorf("apply fixes: %w", err)
		}
		if anyTrue(skipped) {
			// A byte-level overlap the pointer check did not foresee: apply
			// the first fix alone; the rest wait for the next round.
			out, _, err = m.Apply(groups[0])
			if err != nil {
				return nil, fmt.Errorf("apply fixes: %w", err)
			}
			n = 1
		}
		next, err := manifest.Load(m.Path, out)
		if err != nil {
			return nil, fmt.Errorf("internal error: fixing %s produced a manifest that does not load (%v); please report this", m.Path, err)
		}
		res.Applied += n
		m = next
	}
}

func anyTrue(bs []bool) bool {
	for _, b := range bs {
		if b {
			return true
		}
	}
	return false
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
