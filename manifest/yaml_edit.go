package manifest

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"
	"github.com/mcpfit/mcplint/pointer"
)

// yamlEditor splices the edits of one tool of a YAML source.
type yamlEditor struct {
	t    *Tool
	y    *yamlDoc
	ix   *index
	info map[string]*ynode
	w    *yamlWriter
}

func (t *Tool) yamlSplice(e Edit, st style, removed map[string]bool) (splice, error) {
	ed := t.yamlEditor(st)
	src := t.sourcePointer(e.Pointer)
	switch kind, at, rest := ed.target(src, e.Op); kind {
	case rewriteTarget:
		return ed.rewrite(at, rest, e)
	case mergeTarget:
		return ed.throughMerge(at, rest, e)
	}
	n, _, found := ed.ix.lookup(src)
	switch e.Op {
	case Replace:
		if found {
			return ed.replace(src, e.Value)
		}
	case Remove:
		if src == "" {
			return splice{}, fmt.Errorf("cannot remove the tool itself")
		}
		if found {
			return ed.remove(src, removed)
		}
	case Add:
		if found && (src == "" || n.keyStart >= 0) {
			return ed.replace(src, e.Value)
		}
		pp, key := pointer.Parent(src)
		if p, ok := ed.ix.nodes[pp]; ok {
			if p.kind != 's' {
				return ed.add(pp, key, e.Value, removed)
			}
			return splice{}, fmt.Errorf("%s is not an object or array", pp)
		}
		return splice{}, fmt.Errorf("no container at %s", pp)
	default:
		return splice{}, fmt.Errorf("unknown edit")
	}
	return splice{}, fmt.Errorf("no value at %s", src)
}

func (t *Tool) yamlEditor(st style) *yamlEditor {
	y := t.M.yaml
	ix := t.index()
	return &yamlEditor{t: t, y: y, ix: ix, info: y.tools[t.Index].info, w: y.writer(st)}
}

// What an edit at a source pointer changes in the source.
const (
	// directTarget: the value, member or element it points at.
	directTarget = iota
	// rewriteTarget: the value at "at", written anew: an alias (the edit is
	// below it), or a mapping without braces in a flow collection.
	rewriteTarget
	// mergeTarget: the member rest[0] of the mapping at "at", which a merge
	// key brings in, written out.
	mergeTarget
)

// target says what an edit at src changes; rest is the rest of src below
// "at".
func (ed *yamlEditor) target(src string, op Op) (kind int, at string, rest []string) {
	if b, ok := ed.braceless(src); ok {
		return rewriteTarget, b, pointer.Split(src[len(b):])
	}
	n, at, found := ed.ix.lookup(src)
	if found || n == nil {
		return directTarget, "", nil
	}
	if pp, _ := pointer.Parent(src); op == Add && at == pp && n.kind != 's' {
		return directTarget, "", nil // a new member or element
	}
	rest = pointer.Split(src[len(at):])
	inf := ed.info[at]
	if _, ok := inf.node.(*ast.AliasNode); ok {
		return rewriteTarget, at, rest
	}
	if n.kind == '{' && inf.merged[rest[0]] {
		return mergeTarget, at, rest
	}
	return directTarget, "", nil
}

func (ed *yamlEditor) src() []byte { return ed.y.m.Src }

// shared refuses edits inside a value whose anchor aliases use: the edit
// would change every alias too.
func (ed *yamlEditor) shared(ptr string) error {
	_, inf := ed.nearest(ptr)
	if inf == nil || inf.sharedBy == nil {
		return nil
	}
	a := inf.sharedBy.anchor
	pos := ed.y.m.Position(ed.y.uses[a][0])
	return fmt.Errorf("the value at %s is shared: its anchor &%s is used by the alias at line %d; editing it would change that too (edit it by hand, or write the alias out)",
		inf.sharedAt, anchorName(a), pos.Line)
}

// nearest returns the value at ptr, or else at its nearest ancestor that
// has one, and its pointer (nil when none has), as the index finds it.
func (ed *yamlEditor) nearest(ptr string) (string, *ynode) {
	if n, at, _ := ed.ix.lookup(ptr); n != nil {
		return at, ed.info[at]
	}
	return "", nil
}

// breaks refuses replacing or removing a value that defines an anchor used
// outside it: the aliases would be left naming nothing.
func (ed *yamlEditor) breaks(ptr string) error {
	n, inf := ed.ix.nodes[ptr], ed.info[ptr]
	start, end := inf.props, n.end
	for a, uses := range ed.y.uses {
		off := ed.y.off(a.Start)
		if off < start || off >= end {
			continue
		}
		for _, u := range uses {
			if u < start || u >= end {
				return fmt.Errorf("the value at %s defines anchor &%s, which the alias at line %d uses; edit it by hand", ptr, anchorName(a), ed.y.m.Position(u).Line)
			}
		}
	}
	return nil
}

// gapClean says whether src[a:b] is only white space (no comment).
func (ed *yamlEditor) gapClean(a, b int) bool {
	for _, c := range ed.src()[a:b] {
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			return false
		}
	}
	return true
}

// replace writes v in place of the value at ptr.
func (ed *yamlEditor) replace(ptr string, v any) (splice, error) {
	s, err := ed.replaceText(ptr, v)
	if err == nil && s.end < len(ed.src()) && ed.src()[s.end] == '#' && !strings.HasSuffix(s.text, " ") {
		s.text += " " // a comment right after the value ({a: 1}#) stays one
	}
	return s, err
}

func (ed *yamlEditor) replaceText(ptr string, v any) (splice, error) {
	if ptr != "" {
		pp, _ := pointer.Parent(ptr)
		if err := ed.shared(pp); err != nil {
			return splice{}, err
		}
	}
	if err := ed.breaks(ptr); err != nil {
		return splice{}, err
	}
	v = normalizeValue(v)
	n, inf := ed.ix.nodes[ptr], ed.info[ptr]
	start, end := inf.props, n.end
	if inf.colon > 0 && ed.src()[inf.colon-1] != ':' {
		// A key without a value and without ':' ({a} or "? a").
		colon := ": "
		if !inf.inFlow {
			colon = ed.y.nl + spaces(ed.y.column(n.keyStart)) + ":"
		}
		if ed.w.isBlock(v) && !inf.inFlow {
			col := ed.childCol(ptr, v)
			return splice{start: inf.colon, end: end, text: colon + ed.y.nl + spaces(col) + ed.w.block(v, col)}, nil
		}
		return splice{start: inf.colon, end: end, text: strings.TrimRight(colon, " ") + " " + ed.w.flow(v)}, nil
	}
	if inf.inFlow {
		text := ed.w.flow(v)
		if start > 0 && ed.src()[start-1] == ':' {
			text = " " + text // an empty value: {a:}
		}
		return splice{start: start, end: end, text: text}, nil
	}
	if inf.colon >= 0 && ed.gapClean(inf.colon, start) {
		if !ed.w.isBlock(v) {
			return splice{start: inf.colon, end: end, text: " " + ed.w.flow(v)}, nil
		}
		col := ed.childCol(ptr, v)
		return splice{start: inf.colon, end: end, text: ed.y.nl + spaces(col) + ed.w.block(v, col)}, nil
	}
	prefix := ""
	if inf.dash >= 0 && start == inf.dash+1 {
		prefix = " " // an empty element: "-" alone
	}
	col := ed.y.column(start) + len(prefix)
	if n.keyStart >= 0 {
		// A value on a line of its own after a comment (key: # c); a
		// sequence there may be at the key's column, but nothing else.
		if keyCol := ed.y.column(n.keyStart); col <= keyCol {
			prefix = spaces(keyCol + ed.w.unit - col)
			col = keyCol + ed.w.unit
		}
	}
	if ed.w.isBlock(v) {
		return splice{start: start, end: end, text: prefix + ed.w.block(v, col)}, nil
	}
	return splice{start: start, end: end, text: prefix + ed.w.flow(v)}, nil
}

// childCol is the column of a block value written under the key of the
// member at ptr: where the value it replaces was, when that was a block
// collection of the same kind, else one level in (sequences at the key's
// column in a source that writes them so).
func (ed *yamlEditor) childCol(ptr string, v any) int {
	n, inf := ed.ix.nodes[ptr], ed.info[ptr]
	_, isMap := v.(map[string]any)
	if !inf.flow && ((n.kind == '{' && isMap) || (n.kind == '[' && !isMap)) {
		return ed.y.column(n.start)
	}
	keyCol := ed.y.column(n.keyStart)
	if !isMap && ed.w.indentless {
		return keyCol
	}
	return keyCol + ed.w.unit
}

// first is where the member or element at ptr starts: its key, its dash.
func (ed *yamlEditor) first(ptr string) int {
	n, inf := ed.ix.nodes[ptr], ed.info[ptr]
	switch {
	case n.keyStart >= 0:
		return n.keyStart
	case inf.dash >= 0:
		return inf.dash
	}
	return inf.props
}

// braceless finds the innermost mapping above the value at ptr that is
// written in a flow collection without braces ([a: 1] holds {"a": 1}):
// members added or removed there would become elements of the collection.
func (ed *yamlEditor) braceless(ptr string) (string, bool) {
	if ptr == "" {
		return "", false
	}
	pp, _ := pointer.Parent(ptr)
	at, inf := ed.nearest(pp)
	switch {
	case inf == nil:
		return "", false
	case inf.bracelessMapping():
		return at, true
	}
	return inf.braceless, inf.hasBraceless
}

// rewrite applies an edit below the value at at by writing that value anew,
// edited: an alias (written out; the anchor and its other aliases stay), or
// a mapping without braces in a flow collection (written with them).
func (ed *yamlEditor) rewrite(at string, rest []string, e Edit) (splice, error) {
	cur, err := ed.y.decode(ed.info[at].full)
	if err != nil {
		return splice{}, err
	}
	nv, err := applyEdit(cur, rest, e)
	if err != nil {
		return splice{}, err
	}
	return ed.replace(at, nv)
}

// throughMerge applies an edit of (or below) a member that a merge key
// brings into the mapping at at by writing that member out, edited.
func (ed *yamlEditor) throughMerge(at string, rest []string, e Edit) (splice, error) {
	if len(rest) == 1 && e.Op == Remove {
		return splice{}, fmt.Errorf("%s/%s comes from a merge key (<<): remove it from the merged mapping, or override it", at, pointer.Escape(rest[0]))
	}
	cur, err := ed.y.decode(ed.info[at].node)
	if err != nil {
		return splice{}, err
	}
	nv, err := applyEdit(cur.(map[string]any)[rest[0]], rest[1:], e)
	if err != nil {
		return splice{}, err
	}
	return ed.add(at, rest[0], nv, nil)
}

// applyEdit applies e at the pointer tokens toks of a decoded value (which it
// may modify).
func applyEdit(v any, toks []string, e Edit) (any, error) {
	if len(toks) == 0 {
		if e.Op == Remove {
			return nil, fmt.Errorf("cannot remove the value itself")
		}
		return e.Value, nil
	}
	k := toks[0]
	switch x := v.(type) {
	case map[string]any:
		c, ok := x[k]
		if len(toks) > 1 || e.Op != Add {
			if !ok {
				return nil, fmt.Errorf("no value at /%s", pointer.Escape(k))
			}
		}
		if len(toks) == 1 {
			if e.Op == Remove {
				delete(x, k)
			} else {
				x[k] = e.Value
			}
			return x, nil
		}
		nv, err := applyEdit(c, toks[1:], e)
		if err != nil {
			return nil, err
		}
		x[k] = nv
		return x, nil
	case []any:
		if k == "-" && len(toks) == 1 && e.Op == Add {
			return append(x, e.Value), nil
		}
		i, err := strconv.Atoi(k)
		limit := len(x)
		if len(toks) == 1 && e.Op == Add {
			limit++
		}
		if err != nil || i < 0 || i >= limit {
			return nil, fmt.Errorf("bad array index %q", k)
		}
		if len(toks) > 1 {
			nv, err := applyEdit(x[i], toks[1:], e)
			if err != nil {
				return nil, err
			}
			x[i] = nv
			return x, nil
		}
		switch e.Op {
		case Add:
			x = append(x, nil)
			copy(x[i+1:], x[i:])
			x[i] = e.Value
		case Remove:
			x = append(x[:i], x[i+1:]...)
		default:
			x[i] = e.Value
		}
		return x, nil
	}
	return nil, fmt.Errorf("no value at /%s", pointer.Escape(k))
}
