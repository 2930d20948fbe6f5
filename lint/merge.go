package lint

import (
	"cmp"
	"slices"

	"github.com/mcplint/mcplint/consumer"
)

// mergeSubjects folds the findings that several rules report about one
// subject at one place into one finding. Without it, a tool name with a
// "/" gets five findings, one per consumer whose alphabet refuses it; with
// it, one finding names all five. The finding kept is the most severe,
// then the one of the rule listed first; it takes the first fix among the
// merged findings when it has none of its own. Findings of one rule are
// never merged with each other: they report different things.
func mergeSubjects(ds []Diagnostic, rules []*Rule) []Diagnostic {
	subject := map[string]string{}
	order := map[string]int{}
	for i, r := range rules {
		order[r.ID] = i
		if r.Subject != "" {
			subject[r.ID] = r.Subject
		}
	}
	if len(subject) == 0 {
		return ds
	}
	type key struct {
		file, pointer, subject string
		tool                   int
	}
	groups := map[key][]int{}
	for i := range ds {
		d := &ds[i]
		if s, ok := subject[d.Rule]; ok {
			k := key{d.File, d.Pointer, s, d.ToolIndex}
			groups[k] = append(groups[k], i)
		}
	}
	drop := map[int]bool{}
	for _, idx := range groups {
		// One finding per rule: the first each rule reported here.
		seen := map[string]bool{}
		var members []int
		for _, i := range idx {
			if !seen[ds[i].Rule] {
				seen[ds[i].Rule] = true
				members = append(members, i)
			}
		}
		if len(members) < 2 {
			continue
		}
		slices.SortStableFunc(members, func(a, b int) int {
			return cmp.Or(cmp.Compare(ds[b].Severity, ds[a].Severity), cmp.Compare(order[ds[a].Rule], order[ds[b].Rule]))
		})
		keep := &ds[members[0]]
		cons := slices.Clone(keep.Consumers)
		for _, i := range members[1:] {
			o := &ds[i]
			drop[i] = true
			keep.Merged = append(keep.Merged, o.Rule)
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
	if len(drop) == 0 {
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
