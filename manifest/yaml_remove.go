package manifest

import (
	"bytes"
	"strings"

	"github.com/mcpfit/mcplint/pointer"
)

// remove removes the member or element at ptr; removed holds every removal
// of the same Apply in the tool.
func (ed *yamlEditor) remove(ptr string, removed map[string]bool) (splice, error) {
	pp, _ := pointer.Parent(ptr)
	if err := ed.shared(pp); err != nil {
		return splice{}, err
	}
	if err := ed.breaks(ptr); err != nil {
		return splice{}, err
	}
	if ed.info[pp].flow {
		return ed.flowRemove(pp, ptr, removed), nil
	}
	return ed.blockRemove(pp, ptr, removed), nil
}

// flowRemove removes a member or element of a flow collection with the
// separator after it (or, for a trailing run, before it), as JSON.
func (ed *yamlEditor) flowRemove(pp, ptr string, removed map[string]bool) splice {
	p := ed.ix.nodes[pp]
	ch := p.children
	i := indexOf(ch, ptr)
	for _, c := range ch[i+1:] {
		if !removed[c] {
			return splice{start: ed.first(ptr), end: ed.first(ch[i+1])}
		}
	}
	prev := -1
	for j := i - 1; j >= 0; j-- {
		if !removed[ch[j]] {
			prev = j
			break
		}
	}
	if i != prev+1 {
		return splice{noop: true} // the run's first member removes it
	}
	if prev < 0 {
		// Emptying the collection: the span takes in the closing bracket
		// (written back) so that an add in the same Apply overlaps it.
		return splice{start: p.start + 1, end: p.end, text: string(ed.src()[p.end-1 : p.end])}
	}
	return splice{start: ed.ix.nodes[ch[prev]].end, end: ed.ix.nodes[ch[len(ch)-1]].end}
}

// blockRemove removes a member or element of a block collection with its
// lines (and a comment at the end of them); comment lines of their own
// stay.
func (ed *yamlEditor) blockRemove(pp, ptr string, removed map[string]bool) splice {
	y, src := ed.y, ed.src()
	p, n := ed.ix.nodes[pp], ed.ix.nodes[ptr]
	ch := p.children
	i := indexOf(ch, ptr)
	survivor := -1
	for j, c := range ch {
		if !removed[c] {
			survivor = j
			break
		}
	}
	if survivor < 0 && !ed.hasMerge(pp) {
		if i != 0 {
			return splice{noop: true}
		}
		return ed.emptied(pp)
	}
	// A first child on the line of "- " (or "? "): when it goes with the
	// children up to the first survivor, that survivor moves up to its
	// place.
	if c0 := ch[0]; removed[c0] && ed.compact(c0) && survivor > 0 && ed.joinable(ch[:survivor], ch[survivor]) {
		switch {
		case i == 0:
			return splice{start: ed.first(c0), end: ed.first(ch[survivor])}
		case i < survivor:
			return splice{noop: true}
		}
	}
	s := ed.first(ptr)
	ls := y.lineStart(s)
	if ed.gapClean(ls, s) {
		return splice{start: ls, end: ed.innerComments(y.nextLine(n.end), y.column(s))}
	}
	// A first child on the line of "- " that no survivor can replace there
	// (comment lines follow, or only merged members remain): "-" stays on
	// its line, the rest of the collection under it.
	b := s
	for b > ls && src[b-1] == ' ' {
		b--
	}
	return splice{start: b, end: y.eol(n.end)}
}

// innerComments extends the end of a removed child over the comment lines
// (and lines of blanks) after it that are indented deeper than the child
// (col): they are inside it, and left alone they would become the text of a
// block scalar before it.
func (ed *yamlEditor) innerComments(end, col int) int {
	y, src := ed.y, ed.src()
	for p := end; p < len(src); {
		e := y.eol(p)
		line := src[p:e]
		text := bytes.TrimLeft(line, " \t")
		switch {
		case len(bytes.TrimSpace(text)) == 0:
			if len(bytes.TrimRight(line, "\r")) > col {
				end = y.nextLine(p) // blanks that a block scalar would keep
			}
		case text[0] == '#' && len(line)-len(text) > col:
			end = y.nextLine(p)
		default:
			return end
		}
		next := y.nextLine(p)
		if next == p {
			break
		}
		p = next
	}
	return end
}

// compact says whether the child at ptr shares its line with what opens its
// collection ("- " or "? ").
func (ed *yamlEditor) compact(ptr string) bool {
	s := ed.first(ptr)
	return !ed.gapClean(ed.y.lineStart(s), s)
}

// joinable says whether only the removed children gone (and blank lines)
// lie between the first of them and next: no comment line would go with
// them.
func (ed *yamlEditor) joinable(gone []string, next string) bool {
	y := ed.y
	stop := y.lineStart(ed.first(next))
	for l := y.nextLine(ed.ix.nodes[gone[0]].end); l < stop; l = y.nextLine(l) {
		if ed.gapClean(l, y.eol(l)) {
			continue
		}
		in := false
		for _, c := range gone[1:] {
			if l >= y.lineStart(ed.first(c)) && l < y.nextLine(ed.ix.nodes[c].end) {
				in = true
				break
			}
		}
		if !in {
			return false
		}
	}
	return true
}

func (ed *yamlEditor) hasMerge(ptr string) bool {
	return hasMerge(ed.info[ptr].node)
}

// emptied writes {} or [] for a block collection all of whose children go,
// after its key (or dash, or properties): at the column of its children it
// would read as a key (key:\n- a). Comment lines before the children stay.
// The span runs to the end of the line (written back) so that an add in
// the same Apply, which appends at the end of that line, overlaps it.
func (ed *yamlEditor) emptied(pp string) splice {
	y, src := ed.y, ed.src()
	p, inf := ed.ix.nodes[pp], ed.info[pp]
	text := "{}"
	if p.kind == '[' {
		text = "[]"
	}
	from := p.start
	switch {
	case inf.props < p.start:
		props, _ := unwrap(inf.full)
		from = y.propsEnd(props, inf.props)
	case inf.colon >= 0:
		from = inf.colon
	case inf.dash >= 0:
		from = inf.dash + 1
	}
	if from < p.start {
		text = " " + text
		if !ed.gapClean(from, p.start) {
			text += strings.TrimRight(string(src[from:p.start]), " \t")
		}
	}
	end := y.nextLine(p.end)
	return splice{start: from, end: end, text: text + string(src[p.end:end])}
}
