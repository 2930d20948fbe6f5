package lint

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestMergeCompletes: the merge completes the finding it keeps, and the
// merged ones only until it has a fix; the others are never completed.
func TestMergeCompletes(t *testing.T) {
	rules := []*Rule{
		{ID: "a", Subject: "name"}, {ID: "b", Subject: "name"}, {ID: "c", Subject: "name"},
		{ID: "d", Subject: "name"}, {ID: "other"},
	}
	sj := newSubjects(rules)
	made := map[string]int{}
	lazy := func(rule string, sev Severity, fix bool) Diagnostic {
		return Diagnostic{Rule: rule, Severity: sev, File: "m.json", Pointer: "/0/name", Complete: func() (string, *Fix) {
			made[rule]++
			if fix {
				return rule + " says", &Fix{Message: rule + "'s fix"}
			}
			return rule + " says", nil
		}}
	}
	ds := []Diagnostic{
		lazy("a", Warning, false), // merged, completed in search of a fix
		lazy("b", Error, false),   // kept: the most severe
		lazy("c", Warning, true),  // merged, its fix taken
		lazy("d", Warning, true),  // merged, never completed
		lazy("other", Info, true), // no subject: left to the caller
	}
	ds = sj.merge(ds, func(d *Diagnostic) {
		if d.Complete != nil {
			d.Message, d.Fix = d.Complete()
			d.Complete = nil
		}
	})
	if diff := cmp.Diff(map[string]int{"a": 1, "b": 1, "c": 1}, made); diff != "" {
		t.Errorf("completed (-want +got):\n%s", diff)
	}
	if len(ds) != 2 || ds[0].Rule != "b" || ds[0].Message != "b says" || ds[0].Fix == nil || ds[0].Fix.Message != "c's fix" ||
		!cmp.Equal(ds[0].Merged, []string{"a", "c", "d"}) || ds[1].Rule != "other" || ds[1].Complete == nil {
		t.Errorf("merged: %+v", ds)
	}
}
