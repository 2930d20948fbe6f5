package manifest

import (
	"fmt"
	"strconv"

	"github.com/goccy/go-yaml/ast"
)

// add adds member key (or element key, an index or "-") to the collection
// at pp. removed holds the removals of the same Apply: an added member goes
// after the last child that stays, clear of the lines they remove.
func (ed *yamlEditor) add(pp, key string, v any, removed map[string]bool) (splice, error) {
	if err := ed.shared(pp); err != nil {
		return splice{}, err
	}
	y := ed.y
	v = normalizeValue(v)
	p, inf := ed.ix.nodes[pp], ed.info[pp]
	ch := p.children
	idx := len(ch)
	if p.kind == '[' && key != "-" {
		i, err := strconv.Atoi(key)
		if err != nil || i < 0 || i > len(ch) {
			return splice{}, fmt.Errorf("bad array index %q", key)
		}
		idx = i
	}
	if len(ch) == 0 && !ed.hasMerge(pp) {
		// Filling an empty collection ({} or []) is writing it anew, in
		// block style where the collection is in block context.
		var nv any = []any{v}
		if p.kind == '{' {
			nv = map[string]any{key: v}
		}
		return ed.replace(pp, nv)
	}
	if inf.flow {
		return ed.flowAdd(pp, key, idx, v), nil
	}
	col := y.column(p.start)
	var text string
	if p.kind == '{' {
		text = y.nl + spaces(col) + ed.w.blockMember(key, v, col)
	} else {
		item := "- " + ed.w.element(v, col+2)
		if idx < len(ch) {
			at := ed.info[ch[idx]].dash
			return splice{start: at, end: at, text: item + y.nl + spaces(col)}, nil
		}
		text = y.nl + spaces(col) + item
	}
	last, end := pp, p.end
	for i := len(ch) - 1; i >= 0 && removed[ch[i]]; i-- {
		if i > 0 && !removed[ch[i-1]] {
			last = ch[i-1]
			end = ed.ix.nodes[last].end
		}
	}
	at := y.eol(end)
	if e, explicit, ok := ed.emptyLast(last); ok {
		// An empty value ("-" alone, a tag or anchor alone) and then a line
		// at its collection's column reads, to the parser, as that value:
		// the value is written out.
		return splice{start: e, end: at, text: " " + explicit + string(ed.src()[e:at]) + text}, nil
	}
	return splice{start: at, end: at, text: text}, nil
}

// emptyLast finds whether the block collection at ptr ends with an empty
// sequence entry or an empty value with properties, where its value would
// be, and how to write that value.
func (ed *yamlEditor) emptyLast(ptr string) (int, string, bool) {
	for {
		n, inf := ed.ix.nodes[ptr], ed.info[ptr]
		if n.kind != 's' && !inf.flow && len(n.children) > 0 {
			ptr = n.children[len(n.children)-1]
			continue
		}
		if n.kind != 's' || n.start != n.end || (inf.props == n.start && inf.dash < 0) {
			return 0, "", false
		}
		if _, alias := inf.node.(*ast.AliasNode); alias {
			return 0, "", false
		}
		v, err := ed.y.decode(inf.full)
		if err != nil {
			return 0, "", false
		}
		return n.start, ed.w.flow(v), true
	}
}

// flowAdd adds to a non-empty flow collection, as JSON: after the last
// child, or before child idx.
func (ed *yamlEditor) flowAdd(pp, key string, idx int, v any) splice {
	p := ed.ix.nodes[pp]
	ch := p.children
	item := ed.w.flow(v)
	if p.kind == '{' {
		item = ed.w.flowMember(key, v)
	}
	sep := ", "
	if ed.t.multilineAt(p) && len(ch) > 0 {
		sep = "," + ed.y.nl + lineIndent(ed.src(), ed.first(ch[0]))
	}
	if p.kind == '[' && idx < len(ch) {
		at := ed.first(ch[idx])
		return splice{start: at, end: at, text: item + sep}
	}
	end := p.end - 1 // a mapping with merge keys only
	if len(ch) > 0 {
		end = ed.ix.nodes[ch[len(ch)-1]].end
	} else if ps := pairs(ed.info[pp].node); len(ps) > 0 {
		last := ps[len(ps)-1]
		end = ed.y.valueEnd(last.Value, ed.y.colonEnd(last))
	}
	return splice{start: end, end: end, text: sep + item}
}
