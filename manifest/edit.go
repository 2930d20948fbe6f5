package manifest

import (
	"bytes"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/mcpfit/mcplint/pointer"
)

// Op is what an edit does at its pointer.
type Op int

const (
	// Replace sets the value at an existing pointer.
	Replace Op = iota
	// Add creates an object member (or replaces it when present), or inserts
	// an array element (the last token "-" appends).
	Add
	// Remove deletes an object member or array element.
	Remove
)

func (o Op) String() string {
	switch o {
	case Add:
		return "add"
	case Remove:
		return "remove"
	}
	return "replace"
}

// Edit is one change to a tool, at a tool-relative pointer (rules address the
// input schema as /inputSchema whatever the source calls it).
type Edit struct {
	Op      Op
	Pointer string
	Value   any
	// Order, when set, ranks member names by where the source first spells
	// them (Tool.NameOrder): the maps of names (schema.NameMaps:
	// "properties", "$defs", ...) in Value are written in that order, as
	// the author listed them, rather than sorted. A fix that rebuilds a
	// schema sets it so that its properties keep their order.
	Order map[string]int
}

// ToolEdit is an edit of one tool of a manifest.
type ToolEdit struct {
	Tool *Tool
	Edit Edit
}

// splice replaces src[start:end] with text.
type splice struct {
	start, end int
	text       string
	order      int
	depth      int  // of the edited pointer: splices at one offset go innermost first
	noop       bool // covered by another splice of the same Apply
	conflict   bool // not applied: another edit of the same Apply adds the same member
}

// TextEdit replaces the bytes Src[Start:End] of a manifest with NewText: an
// edit of the source itself, which every consumer of a fix shares (the fix
// loop applies it, SARIF reports it, --diff shows its effect).
type TextEdit struct {
	Start, End int
	NewText    string
}

// Apply returns the source with the edits spliced in. Everything outside the
// edited spans stays byte-identical. An edit whose bytes overlap those of an
// earlier edit is not applied; skipped reports which, so a caller can apply
// them on the result in a further round.
func (m *Manifest) Apply(edits []ToolEdit) (out []byte, skipped []bool, err error) {
	sp, err := m.splices(edits)
	if err != nil {
		return nil, nil, err
	}
	skipped = make([]bool, len(edits))
	var kept []TextEdit
	last := 0
	for _, s := range sp {
		switch {
		case s.conflict:
			skipped[s.order] = true
		case s.noop:
		case s.start < last:
			skipped[s.order] = true
		default:
			kept = append(kept, TextEdit{s.start, s.end, s.text})
			last = s.end
		}
	}
	return m.ApplyText(kept), skipped, nil
}

// TextEdits turns the edits of one fix of tool t into edits of the source,
// in source order. whole is false when they cannot all be made together
// (two of them write the same bytes): such a fix is never applied.
func (t *Tool) TextEdits(edits []Edit) (te []TextEdit, whole bool, err error) {
	tes := make([]ToolEdit, len(edits))
	for i, e := range edits {
		tes[i] = ToolEdit{Tool: t, Edit: e}
	}
	sp, err := t.M.splices(tes)
	if err != nil {
		return nil, false, err
	}
	last := 0
	for _, s := range sp {
		switch {
		case s.noop:
		case s.conflict, s.start < last:
			return nil, false, nil
		default:
			te = append(te, TextEdit{s.start, s.end, s.text})
			last = s.end
		}
	}
	return te, true, nil
}

// ApplyText returns the source with edits made. They are in source order
// and do not overlap (an insertion may stand at the end of another edit).
func (m *Manifest) ApplyText(edits []TextEdit) []byte {
	grow := 0
	for _, e := range edits {
		grow += len(e.NewText) - (e.End - e.Start)
	}
	out := make([]byte, 0, len(m.Src)+max(grow, 0))
	last := 0
	for _, e := range edits {
		out = append(out, m.Src[last:e.Start]...)
		out = append(out, e.NewText...)
		last = e.End
	}
	return append(out, m.Src[last:]...)
}

// splices plans the edits of one Apply, in the order they go into the
// source.
func (m *Manifest) splices(edits []ToolEdit) ([]splice, error) {
	st := m.style()
	// Removals in one container are spliced together so that runs of removed
	// members take their separators with them exactly once.
	removed := map[*Tool]map[string]bool{}
	for _, te := range edits {
		if p := te.Edit.Pointer; p != "" && p[0] != '/' {
			return nil, fmt.Errorf("%s: tool %q: %s %q: not a JSON Pointer (it must be empty or start with \"/\")", m.Path, te.Tool.Name, te.Edit.Op, p)
		}
		if te.Edit.Op == Remove {
			if removed[te.Tool] == nil {
				removed[te.Tool] = map[string]bool{}
			}
			removed[te.Tool][te.Tool.sourcePointer(te.Edit.Pointer)] = true
		}
	}
	fills, conflicts := planAdds(edits)
	var planned map[int]yamlPlanned
	if m.Format == YAML {
		planned = planYAML(edits, st, removed, fills)
	}
	sp := make([]splice, 0, len(edits))
	for i, te := range edits {
		var s splice
		var err error
		est := st.forEdit(te.Edit)
		switch {
		case conflicts[i]:
			s.conflict = true
		case m.Format == YAML:
			if p, ok := planned[i]; ok {
				s, err = p.s, p.err
			} else {
				s, err = te.Tool.yamlSplice(te.Edit, est, removed[te.Tool])
			}
		case fills[i] != nil:
			s, err = te.Tool.fillSplice(fills[i], st)
		default:
			s, err = te.Tool.jsonSplice(te.Edit, est, removed[te.Tool])
		}
		if err != nil {
			return nil, fmt.Errorf("%s: tool %q: %s %s: %w", m.Path, te.Tool.Name, te.Edit.Op, te.Edit.Pointer, err)
		}
		s.order = i
		s.depth = strings.Count(te.Tool.sourcePointer(te.Edit.Pointer), "/")
		sp = append(sp, s)
	}
	// Block-style YAML mappings nested in one another end at the same byte,
	// so members added to several of them splice in at one offset: the
	// innermost mapping's goes first, or it would land under the outer one.
	sort.SliceStable(sp, func(i, j int) bool {
		if sp[i].start != sp[j].start {
			return sp[i].start < sp[j].start
		}
		return sp[i].depth > sp[j].depth
	})
	return sp, nil
}

func (m *Manifest) style() style {
	m.stOnce.Do(func() { m.st = detectStyle(m.Src) })
	return m.st
}

func (t *Tool) node(src string) (*node, error) {
	n, _, found := t.index().lookup(src)
	if !found {
		return nil, fmt.Errorf("no value at %s", src)
	}
	return n, nil
}

func (t *Tool) multilineAt(n *node) bool {
	return bytes.IndexByte(t.M.Src[n.start:n.end], '\n') >= 0
}

// planAdds finds the adds of one Apply that cannot be spliced one by one. A
// member added twice to the same object is a conflict: the later add is
// skipped rather than writing a duplicate key. Adds into one empty container
// are rendered together by the first of them (fills maps its index to all of
// them; the others become no-ops), because only the first member of a
// container goes without a separator.
func planAdds(edits []ToolEdit) (fills map[int][]Edit, conflicts map[int]bool) {
	type target struct {
		t   *Tool
		ptr string
	}
	added := map[target]bool{}
	first := map[target]int{}
	for i, te := range edits {
		if te.Edit.Op != Add {
			continue
		}
		t, src := te.Tool, te.Tool.sourcePointer(te.Edit.Pointer)
		if src == "" {
			continue
		}
		ix := t.index()
		if n, ok := ix.nodes[src]; ok && n.keyStart >= 0 {
			continue // replaces a member: an ordinary splice
		}
		pp, _ := pointer.Parent(src)
		p := ix.nodes[pp]
		if p == nil {
			continue // jsonSplice reports it
		}
		if p.kind == '{' {
			if added[target{t, src}] {
				if conflicts == nil {
					conflicts = map[int]bool{}
				}
				conflicts[i] = true
				continue
			}
			added[target{t, src}] = true
		}
		if (p.kind != '{' && p.kind != '[') || len(p.children) > 0 {
			continue
		}
		if fills == nil {
			fills = map[int][]Edit{}
		}
		k := target{t, pp}
		if j, ok := first[k]; ok {
			fills[j] = append(fills[j], te.Edit)
			fills[i] = []Edit{} // non-nil and empty: a no-op
			continue
		}
		first[k] = i
		fills[i] = []Edit{te.Edit}
	}
	return fills, conflicts
}

// fillSplice writes the members that edits add to an empty container (all
// edits address the same one).
func (t *Tool) fillSplice(edits []Edit, st style) (splice, error) {
	if len(edits) == 0 {
		return splice{noop: true}, nil
	}
	pp, _ := pointer.Parent(t.sourcePointer(edits[0].Pointer))
	p, err := t.node(pp)
	if err != nil {
		return splice{}, fmt.Errorf("no container at %s", pp)
	}
	childIndent := p.indent + st.unit
	items := make([]string, len(edits))
	long := false
	for i, e := range edits {
		_, key := pointer.Parent(t.sourcePointer(e.Pointer))
		if p.kind == '[' && key != "-" && key != "0" {
			return splice{}, fmt.Errorf("bad array index %q", key)
		}
		items[i] = t.itemText(p, key, e.Value, childIndent, st.forEdit(e))
		long = long || len(items[i]) > 60
	}
	if t.multilineAt(p) || (st.pretty && long) {
		return splice{start: p.start + 1, end: p.end - 1, text: st.newline + childIndent + strings.Join(items, ","+st.newline+childIndent) + st.newline + p.indent}, nil
	}
	sep := ","
	if st.commaSpace {
		sep = ", "
	}
	return splice{start: p.start + 1, end: p.end - 1, text: strings.Join(items, sep)}, nil
}

// itemText renders a member (key and value) of object p, or an element of
// array p.
func (t *Tool) itemText(p *node, key string, v any, indent string, st style) string {
	if p.kind == '[' {
		return t.valueText(v, indent, false, st)
	}
	colon := ":"
	if st.colonSpace {
		colon = ": "
	}
	return quote(key) + colon + t.valueText(v, indent, false, st)
}

func (t *Tool) jsonSplice(e Edit, st style, removed map[string]bool) (splice, error) {
	src := t.sourcePointer(e.Pointer)
	ix := t.index()
	switch e.Op {
	case Replace:
		n, err := t.node(src)
		if err != nil {
			return splice{}, err
		}
		return splice{start: n.start, end: n.end, text: t.valueText(e.Value, n.indent, t.multilineAt(n), t.lineStyle(src, st))}, nil
	case Remove:
		if src == "" {
			return splice{}, fmt.Errorf("cannot remove the tool itself")
		}
		n, err := t.node(src)
		if err != nil {
			return splice{}, err
		}
		pp, _ := pointer.Parent(src)
		p := ix.nodes[pp]
		s := removalSplice(ix, p, n, src, removed)
		if !s.noop && s.start == p.start+1 && s.end == p.end-1 {
			// Emptying the container: the span takes in the closing bracket
			// (and writes it back) so that an add appending after the last
			// member overlaps it, as its leading separator would be stray.
			s.end, s.text = p.end, string(t.M.Src[p.end-1:p.end])
		}
		return s, nil
	case Add:
		// Adding the tool itself, or a member that exists (whatever its
		// name, "-" included), replaces it.
		if n, ok := ix.nodes[src]; src == "" || (ok && n.keyStart >= 0) {
			return t.jsonSplice(Edit{Op: Replace, Pointer: e.Pointer, Value: e.Value}, st, removed)
		}
		pp, key := pointer.Parent(src)
		p, err := t.node(pp)
		if err != nil {
			return splice{}, fmt.Errorf("no container at %s", pp)
		}
		ml := t.multilineAt(p)
		if !ml && len(p.children) > 0 {
			// A member added to a one-line container stays on its line.
			st.pretty = false
		}
		childIndent := p.indent + st.unit
		if len(p.children) > 0 {
			childIndent = ix.nodes[p.children[0]].indent
		}
		item := t.itemText(p, key, e.Value, childIndent, st)
		switch p.kind {
		case '{':
		case '[':
			if key != "-" {
				i, err := strconv.Atoi(key)
				if err != nil || i < 0 || i > len(p.children) {
					return splice{}, fmt.Errorf("bad array index %q", key)
				}
				if i < len(p.children) {
					at := ix.nodes[p.children[i]].start
					sep := ","
					if ml {
						sep += st.newline + childIndent
					} else if st.commaSpace {
						sep += " "
					}
					return splice{start: at, end: at, text: item + sep}, nil
				}
			}
		default:
			return splice{}, fmt.Errorf("%s is not an object or array", pp)
		}
		if len(p.children) == 0 {
			return t.fillSplice([]Edit{e}, st)
		}
		last := ix.nodes[p.children[len(p.children)-1]]
		sep := ","
		if ml {
			sep += st.newline + childIndent
		} else if st.commaSpace {
			sep += " "
		}
		return splice{start: last.end, end: last.end, text: sep + item}, nil
	}
	return splice{}, fmt.Errorf("unknown edit")
}

// lineStyle is the style for a value replaced at src: a value inside a
// one-line container stays on one line, since spreading it over lines would
// leave the container half on one line and half on several.
func (t *Tool) lineStyle(src string, st style) style {
	if src == "" {
		return st
	}
	pp, _ := pointer.Parent(src)
	if p, ok := t.index().nodes[pp]; ok && !t.multilineAt(p) {
		st.pretty = false
	}
	return st
}

// valueText renders a value for insertion. Containers go over several lines in
// a pretty-printed source when the place is already multi-line or when one
// line would be long.
func (t *Tool) valueText(v any, indent string, multiline bool, st style) string {
	if !st.pretty {
		return renderJSON(v, indent, false, st)
	}
	one := renderJSON(v, indent, false, st)
	if !multiline && len(one) <= 72 {
		return one
	}
	switch v.(type) {
	case map[string]any, []any:
		return renderJSON(v, indent, true, st)
	}
	return one
}

func (n *node) first() int {
	if n.keyStart >= 0 {
		return n.keyStart
	}
	return n.start
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

// removalSplice removes child n (at ptr) of container p, given every child
// removed by the same Apply. A child followed by a survivor takes the
// separator after it; the trailing run of removed children is removed as one
// span from the last survivor's end, by its first member; when no child
// survives, the first removal empties the container.
func removalSplice(ix *index, p, n *node, ptr string, removed map[string]bool) splice {
	i := indexOf(p.children, ptr)
	survivorAfter := false
	for _, c := range p.children[i+1:] {
		if !removed[c] {
			survivorAfter = true
			break
		}
	}
	if survivorAfter {
		return splice{start: n.first(), end: ix.nodes[p.children[i+1]].first()}
	}
	prev := -1
	for j := i - 1; j >= 0; j-- {
		if !removed[p.children[j]] {
			prev = j
			break
		}
	}
	runStart := prev + 1
	if i != runStart {
		return splice{noop: true} // the run's first member removes it
	}
	last := ix.nodes[p.children[len(p.children)-1]]
	if prev < 0 {
		return splice{start: p.start + 1, end: p.end - 1}
	}
	return splice{start: ix.nodes[p.children[prev]].end, end: last.end}
}
