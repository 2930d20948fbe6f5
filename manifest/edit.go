package manifest

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
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
	noop       bool // covered by another splice of the same Apply
}

// Apply returns the source with the edits spliced in. Everything outside the
// edited spans stays byte-identical. An edit whose bytes overlap those of an
// earlier edit is not applied; skipped reports which, so a caller can apply
// them on the result in a further round.
func (m *Manifest) Apply(edits []ToolEdit) (out []byte, skipped []bool, err error) {
	st := m.style()
	// Removals in one container are spliced together so that runs of removed
	// members take their separators with them exactly once.
	removed := map[*Tool]map[string]bool{}
	for _, te := range edits {
		if te.Edit.Op == Remove {
			if removed[te.Tool] == nil {
				removed[te.Tool] = map[string]bool{}
			}
			removed[te.Tool][te.Tool.sourcePointer(te.Edit.Pointer)] = true
		}
	}
	var sp []splice
	for i, te := range edits {
		var s splice
		var err error
		if m.Format == YAML {
			s, err = te.Tool.yamlSplice(te.Edit, st, removed[te.Tool])
		} else {
			s, err = te.Tool.jsonSplice(te.Edit, st, removed[te.Tool])
		}
		if err != nil {
			return nil, nil, fmt.Errorf("%s: tool %q: %s %s: %w", m.Path, te.Tool.Name, te.Edit.Op, te.Edit.Pointer, err)
		}
		s.order = i
		sp = append(sp, s)
	}
	sort.SliceStable(sp, func(i, j int) bool { return sp[i].start < sp[j].start })
	skipped = make([]bool, len(edits))
	var b strings.Builder
	b.Grow(len(m.Src) + 256)
	last := 0
	for _, s := range sp {
		if s.noop {
			continue
		}
		if s.start < last {
			skipped[s.order] = true
			continue
		}
		b.Write(m.Src[last:s.start])
		b.WriteString(s.text)
		last = s.end
	}
	b.Write(m.Src[last:])
	return []byte(b.String()), skipped, nil
}

func (m *Manifest) style() style {
	if m.st == nil {
		st := detectStyle(m.Src)
		m.st = &st
	}
	return *m.st
}

func (t *Tool) node(src string) (*node, error) {
	n, _, found := t.index().lookup(src)
	if !found {
		return nil, fmt.Errorf("no value at %s", src)
	}
	return n, nil
}

func parentPointer(p string) (parent, last string) {
	i := lastSlash(p)
	toks := SplitPointer(p[i:])
	if len(toks) == 0 {
		return "", ""
	}
	return p[:i], toks[0]
}

func (t *Tool) multilineAt(n *node) bool {
	return strings.Contains(string(t.M.Src[n.start:n.end]), "\n")
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
		return splice{start: n.start, end: n.end, text: t.valueText(e.Value, n.indent, t.multilineAt(n), st)}, nil
	case Remove:
		if src == "" {
			return splice{}, fmt.Errorf("cannot remove the tool itself")
		}
		n, err := t.node(src)
		if err != nil {
			return splice{}, err
		}
		pp, _ := parentPointer(src)
		p := ix.nodes[pp]
		return removalSplice(ix, p, n, src, removed), nil
	case Add:
		if _, ok := ix.nodes[src]; ok && !strings.HasSuffix(src, "/-") {
			if n := ix.nodes[src]; n.keyStart >= 0 {
				return t.jsonSplice(Edit{Op: Replace, Pointer: e.Pointer, Value: e.Value}, st, removed)
			}
		}
		pp, key := parentPointer(src)
		p, err := t.node(pp)
		if err != nil {
			return splice{}, fmt.Errorf("no container at %s", pp)
		}
		ml := t.multilineAt(p)
		var item string
		childIndent := p.indent + st.unit
		if len(p.children) > 0 {
			childIndent = ix.nodes[p.children[0]].indent
		}
		switch p.kind {
		case '{':
			colon := ":"
			if st.colonSpace {
				colon = ": "
			}
			item = quote(key) + colon + t.valueText(e.Value, childIndent, false, st)
		case '[':
			item = t.valueText(e.Value, childIndent, false, st)
			if key != "-" {
				i, err := strconv.Atoi(key)
				if err != nil || i < 0 || i > len(p.children) {
					return splice{}, fmt.Errorf("bad array index %q", key)
				}
				if i < len(p.children) {
					at := ix.nodes[p.children[i]].start
					sep := ","
					if ml {
						sep += "\n" + childIndent
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
			if ml || (st.pretty && len(item) > 60) {
				return splice{start: p.start + 1, end: p.end - 1, text: "\n" + childIndent + item + "\n" + p.indent}, nil
			}
			return splice{start: p.start + 1, end: p.end - 1, text: item}, nil
		}
		last := ix.nodes[p.children[len(p.children)-1]]
		sep := ","
		if ml {
			sep += "\n" + childIndent
		} else if st.commaSpace {
			sep += " "
		}
		return splice{start: last.end, end: last.end, text: sep + item}, nil
	}
	return splice{}, fmt.Errorf("unknown edit")
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
