package lint

import (
	"cmp"
	"slices"

	"github.com/mcpfit/mcplint/consumer"
)

// subjects knows, for the rules of a run, the subject each reports
// (Rule.Subject) and the order they are listed in; nil when no rule has a
// subject.
type subjects struct {
	of    map[string]string
	order map[string]int
}

func newSubjects(rules []*Rule) *subjects {
	sj := &subjects{of: map[string]string{}, order: map[string]int{}}
	for i, r := range rules {
		sj.order[r.ID] = i
		if r.Subject != "" {
			sj.of[r.ID] = r.Subject
		}
	}
	if len(sj.of) == 0 {
		return nil
	}
	return sj
}

// merge folds the findings that several rules report about one subject at
// one place into one finding. Without it, a tool name with a "/" gets five
// findings, one per consumer whose alphabet refuses it; with it, one
// finding names all five. The finding kept is the most severe, then the
// one of the rule listed first; it takes the first fix among the merged
// findings when it has none of its own. Findings of one rule are never
// merged with each other: they report different things. The engine merges
// each tool's findings on their own (a place is in one tool), so the
// findings are few and grouped by sorting rather than hashing. Complete,
// unless nil, completes a finding (Diagnostic.Complete) before its fix is
// read: the kept finding's, and each merged one's until a fix is found.
func (sj *subjects) merge(ds []Diagnostic, complete func(*Diagnostic)) []Diagnostic {
	if sj == nil {
		return ds
	}
	var idx []int // the findings with a subject
	for i := range ds {
		if _, ok := sj.of[ds[i].Rule]; ok {
			idx = append(idx, i)
		}
	}
	if len(idx) < 2 {
		return ds
	}
	// Groups of one place and subject, each in the order reported.
	slices.SortStableFunc(idx, func(a, b int) int {
		da, db := &ds[a], &ds[b]
		return cmp.Or(cmp.Compare(da.File, db.File), cmp.Compare(da.Pointer, db.Pointer),
			cmp.Compare(sj.of[da.Rule], sj.of[db.Rule]), cmp.Compare(da.ToolIndex, db.ToolIndex))
	})
	var drop []bool
	for start := 0; start < len(idx); {
		end := start + 1
		for end < len(idx) {
			a, b := &ds[idx[start]], &ds[idx[end]]
			if a.File != b.File || a.Pointer != b.Pointer || sj.of[a.Rule] != sj.of[b.Rule] || a.ToolIndex != b.ToolIndex {
				break
			}
			end++
		}
		// One finding per rule: the first each rule reported here.
		var members []int
		for _, i := range idx[start:end] {
			if !slices.ContainsFunc(members, func(j int) bool { return ds[j].Rule == ds[i].Rule }) {
				members = append(members, i)
			}
		}
		start = end
		if len(members) < 2 {
			continue
		}
		slices.SortStableFunc(members, func(a, b int) int {
			return cmp.Or(cmp.Compare(ds[b].Severity, ds[a].Severity), cmp.Compare(sj.order[ds[a].Rule], sj.order[ds[b].Rule]))
		})
		keep := &ds[members[0]]
		cons := slices.Clone(keep.Consumers)
		if drop == nil {
			drop = make([]bool, len(ds))
		}
		if complete != nil {
			complete(keep)
		}
		for _, i := range members[1:] {
			o := &ds[i]
			drop[i] = true
			keep.Silenced = keep.Silenced || o.Silenced
			keep.Merged = append(keep.Merged, o.Rule)
			if keep.Fix == nil && complete != nil {
				complete(o)
			}
			if keep.Fix == nil && o.Fix != nil {
				keep.Fix = o.Fix
			}
			for _, c := range o.Consumers {
				if !slices.ContainsFunc(cons, func(x consumer.Refusal) bool { return x.Consumer == c.Consumer && x.Mangles == c.Mangles }) {
					cons = append(cons, c)
				}
			}
		}
		keep.Consumers = cons
	}
	if drop == nil {
		return ds
	}
	out := ds[:0]
	for i := range ds {
		if !drop[i] {
			out = append(out, ds[i])
		}
	}
	return out
}

// dropSilenced removes, in place, the findings an ignore silenced
// (Diagnostic.Silenced): a silencer's or a suppressed one's, and those
// they were merged into.
func dropSilenced(ds []Diagnostic) []Diagnostic {
	return slices.DeleteFunc(ds, func(d Diagnostic) bool { return d.Silenced })
}
