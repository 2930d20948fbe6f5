package manifest

import (
	"fmt"

	"github.com/mcpfit/mcplint/pointer"
)

// A fix is applied whole or not at all, so the edits of one Apply that
// write the same place anew are spliced together: each alone would rewrite
// it, and all but the first would overlap. These are the edits below one
// alias or one mapping without braces (rewritten with all of them), of one
// merged member (written out with all of them), and the adds that fill one
// empty collection.

// yamlPlanned is the splice of an edit planned with others, or its error.
type yamlPlanned struct {
	s   splice
	err error
}

// planYAML splices the edits that go together; the others are left to
// yamlSplice. fills are planAdds': the adds into each empty collection,
// listed at the first of them.
func planYAML(edits []ToolEdit, st style, removed map[*Tool]map[string]bool, fills map[int][]Edit) map[int]yamlPlanned {
	plan := map[int]yamlPlanned{}
	type place struct {
		t      *Tool
		kind   int
		at     string
		member string
	}
	var order []place
	groups := map[place][]int{}
	for i, te := range edits {
		if f, ok := fills[i]; ok {
			if len(f) == 0 {
				plan[i] = yamlPlanned{s: splice{noop: true}}
			} else if len(f) > 1 {
				s, err := te.Tool.yamlFill(f, st, removed[te.Tool])
				plan[i] = yamlPlanned{s, err}
			}
			continue
		}
		ed := te.Tool.yamlEditor(st)
		kind, at, rest := ed.target(te.Tool.sourcePointer(te.Edit.Pointer), te.Edit.Op)
		if kind == directTarget {
			continue
		}
		k := place{t: te.Tool, kind: kind, at: at}
		if kind == mergeTarget {
			k.member = rest[0]
		}
		if groups[k] == nil {
			order = append(order, k)
		}
		groups[k] = append(groups[k], i)
	}
	for _, k := range order {
		idx := groups[k]
		if len(idx) < 2 {
			continue
		}
		s, err := k.t.yamlTogether(k.kind, k.at, k.member, edits, idx, st)
		plan[idx[0]] = yamlPlanned{s, err}
		for _, i := range idx[1:] {
			plan[i] = yamlPlanned{s: splice{noop: true}}
		}
	}
	return plan
}

// yamlTogether writes anew the value at "at" (or its merged member) with
// the edits idx applied in order.
func (t *Tool) yamlTogether(kind int, at, member string, edits []ToolEdit, idx []int, st style) (splice, error) {
	var these []Edit
	for _, i := range idx {
		these = append(these, edits[i].Edit)
	}
	written := at
	if kind == mergeTarget {
		written = at + "/" + pointer.Escape(member)
	}
	ed := t.yamlEditor(st.forValue(written, editsOrder(these)))
	cur, err := ed.y.decode(ed.info[at].full)
	if err != nil {
		return splice{}, err
	}
	if kind == mergeTarget {
		cur = cur.(map[string]any)[member]
	}
	for _, i := range idx {
		e := edits[i].Edit
		_, _, rest := ed.target(t.sourcePointer(e.Pointer), e.Op)
		if kind == mergeTarget {
			if len(rest) == 1 && e.Op == Remove {
				return splice{}, fmt.Errorf("%s/%s comes from a merge key (<<): remove it from the merged mapping, or override it", at, pointer.Escape(member))
			}
			rest = rest[1:]
		}
		if cur, err = applyEdit(cur, rest, e); err != nil {
			return splice{}, err
		}
	}
	if kind == mergeTarget {
		return ed.add(at, member, cur, nil)
	}
	return ed.replace(at, cur)
}

// yamlFill applies the adds that fill one empty collection: it is written
// anew with all of them. A mapping that merge keys alone fill is not empty:
// the members are added together, where one would be.
func (t *Tool) yamlFill(edits []Edit, st style, removed map[string]bool) (splice, error) {
	pp, _ := pointer.Parent(t.sourcePointer(edits[0].Pointer))
	ed := t.yamlEditor(st.forValue(pp, editsOrder(edits)))
	if ed.info[pp] == nil {
		return t.yamlSplice(edits[0], st.forEdit(edits[0]), removed)
	}
	if ed.hasMerge(pp) {
		var all splice
		for i, e := range edits {
			s, err := t.yamlSplice(e, st.forEdit(e), removed)
			if err != nil {
				return splice{}, err
			}
			if i > 0 && (s.start != all.start || s.end != all.end) {
				return splice{}, fmt.Errorf("cannot add %s with %s", e.Pointer, edits[0].Pointer)
			}
			all.start, all.end, all.text = s.start, s.end, all.text+s.text
		}
		return all, nil
	}
	cur, err := ed.y.decode(ed.info[pp].full)
	if err != nil {
		return splice{}, err
	}
	for _, e := range edits {
		_, key := pointer.Parent(t.sourcePointer(e.Pointer))
		if cur, err = applyEdit(cur, []string{key}, e); err != nil {
			return splice{}, err
		}
	}
	return ed.replace(pp, cur)
}
