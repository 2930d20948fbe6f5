package manifest

import (
	"bytes"
	"sort"
	"strings"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"
)

// The parser gives where tokens start; where values end is found here, in
// the source bytes, so that spans cover exactly what an edit replaces.

// off is where a token starts. The scanner misplaces some tokens: those
// after tags on their line one column early for each tag (shiftAfterTags
// knows those), a plain scalar that ends its line as many columns late as
// there are blanks after it, a multi-line one on its last line. The token's
// own text, found next to where the scanner says, puts it right.
func (y *yamlDoc) off(tk *token.Token) int {
	if tk == nil {
		return y.base
	}
	src := y.m.Src
	pos := tk.Position
	if k := y.shift[tk]; k > 0 && pos != nil {
		p := *pos
		p.Column += k
		pos = &p
	}
	s := y.offset(pos)
	o := strings.Trim(tk.Origin, " \t\r\n")
	if o == "" {
		return s
	}
	if _, ok := matchText(src, s, o); ok {
		return s
	}
	f := s
	for f < len(src) && (src[f] == ' ' || src[f] == '\t') {
		f++
	}
	if _, ok := matchText(src, f, o); ok {
		return f
	}
	// A multi-line scalar may be placed on its last line, or after it.
	from := y.lineStart(s)
	for range strings.Count(o, "\n") + strings.Count(o, "\r") + 2 {
		if from > y.base {
			from = y.lineStart(from - 1)
		}
	}
	// Else the nearest place, before first, where the text is.
	to := y.eol(min(s, len(src)))
	for d := 1; s-d >= from || s+d <= to; d++ {
		if s-d >= from {
			if _, ok := matchText(src, s-d, o); ok {
				return s - d
			}
		}
		if s+d <= to {
			if _, ok := matchText(src, s+d, o); ok {
				return s + d
			}
		}
	}
	return s
}

// matchText matches a token's text o at src[p:], where the text may have
// lost the blanks that end its lines, and returns where it ends.
func matchText(src []byte, p int, o string) (int, bool) {
	if p < 0 {
		return 0, false
	}
	for i := 0; i < len(o); {
		if o[i] == '\r' || o[i] == '\n' {
			for p < len(src) && (src[p] == ' ' || src[p] == '\t') {
				p++
			}
			if p >= len(src) || (src[p] != '\r' && src[p] != '\n') {
				return 0, false
			}
			for i < len(o) && (o[i] == '\r' || o[i] == '\n') && p < len(src) && (src[p] == '\r' || src[p] == '\n') {
				i, p = i+1, p+1
			}
			continue
		}
		if p >= len(src) || src[p] != o[i] {
			return 0, false
		}
		i, p = i+1, p+1
	}
	return p, true
}

// eol is the end of the line holding off (before its line break).
func (y *yamlDoc) eol(off int) int {
	src := y.m.Src
	for off < len(src) && src[off] != '\n' && src[off] != '\r' {
		off++
	}
	return off
}

// nextLine is the start of the line after the one holding off, or the end
// of the source.
func (y *yamlDoc) nextLine(off int) int {
	src := y.m.Src
	off = y.eol(off)
	if off < len(src) && src[off] == '\r' {
		off++
	}
	if off < len(src) && src[off] == '\n' {
		off++
	}
	return off
}

// lineStart is the start of the line holding off.
func (y *yamlDoc) lineStart(off int) int {
	i := sort.SearchInts(y.lines, off+1) - 1
	if i < 0 {
		return y.base
	}
	return y.lines[i]
}

// indent is the leading white space of the line holding off.
func (y *yamlDoc) indent(off int) string {
	src := y.m.Src
	ls := y.lineStart(off)
	i := ls
	for i < off && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	return string(src[ls:i])
}

// column is the 0-based column of off in characters, as YAML indentation
// counts.
func (y *yamlDoc) column(off int) int {
	return len([]rune(string(y.m.Src[y.lineStart(off):off])))
}

// propsStart is where a value's properties start, or start without any.
func (y *yamlDoc) propsStart(props []ast.Node, start int) int {
	if len(props) == 0 {
		return start
	}
	return y.off(props[0].GetToken())
}

// propsEnd is where a value's properties end, or after without any.
func (y *yamlDoc) propsEnd(props []ast.Node, after int) int {
	if len(props) == 0 {
		return after
	}
	switch p := props[len(props)-1].(type) {
	case *ast.AnchorNode:
		if p.Name != nil {
			return y.off(p.Name.GetToken()) + len(anchorName(p))
		}
		return y.off(p.Start) + 1
	case *ast.TagNode:
		return y.off(p.Start) + len(p.Start.Value)
	}
	return after
}

// valueEnd is where the value n (with its properties) ends; after is where
// an empty value is.
func (y *yamlDoc) valueEnd(n ast.Node, after int) int {
	props, c := unwrap(n)
	_, end := y.contentSpan(c, y.propsEnd(props, after))
	return end
}

// contentSpan is the span of a value without its properties; after is where
// an empty value is.
func (y *yamlDoc) contentSpan(c ast.Node, after int) (start, end int) {
	switch c := c.(type) {
	case nil:
		return after, after
	case *ast.NullNode:
		if c.Token.Type == token.ImplicitNullType {
			return after, after
		}
	case *ast.AliasNode:
		s := y.off(c.Start)
		if c.Value == nil {
			return s, s + 1
		}
		return s, y.off(c.Value.GetToken()) + len(aliasName(c))
	case *ast.MappingNode:
		if c.IsFlowStyle || len(c.Values) == 0 {
			return y.off(c.Start), y.off(c.End) + 1
		}
		last := c.Values[len(c.Values)-1]
		return y.off(c.Values[0].Key.GetToken()), y.valueEnd(last.Value, y.colonEnd(last))
	case *ast.MappingValueNode:
		return y.off(c.Key.GetToken()), y.valueEnd(c.Value, y.colonEnd(c))
	case *ast.SequenceNode:
		if c.IsFlowStyle || len(c.Values) == 0 {
			return y.off(c.Start), y.off(c.End) + 1
		}
		s := y.dash(c, 0)
		last := len(c.Values) - 1
		return s, y.valueEnd(c.Values[last], y.dash(c, last)+1)
	case *ast.LiteralNode:
		return y.blockScalarSpan(c)
	case *ast.StringNode:
		if c.Token.Type == token.SingleQuoteType || c.Token.Type == token.DoubleQuoteType {
			s := y.off(c.Token)
			return s, y.quotedEnd(s)
		}
	}
	tk := c.GetToken()
	s := y.off(tk)
	return s, y.plainEnd(tk, s)
}

// dash is the offset of the i-th entry's '-' in a block sequence.
func (y *yamlDoc) dash(seq *ast.SequenceNode, i int) int {
	if i < len(seq.Entries) && seq.Entries[i] != nil {
		return y.off(seq.Entries[i].Start)
	}
	return y.off(seq.Start)
}

// quotedEnd finds the end of the quoted scalar starting at s.
func (y *yamlDoc) quotedEnd(s int) int {
	src := y.m.Src
	q := src[s]
	for i := s + 1; i < len(src); i++ {
		switch {
		case q == '"' && src[i] == '\\':
			i++
		case src[i] == q:
			if q == '\'' && i+1 < len(src) && src[i+1] == '\'' {
				i++
				continue
			}
			return i + 1
		}
	}
	return len(src)
}

// plainEnd finds the end of the plain scalar starting at s: its token's
// source text (which spans lines for a multi-line scalar), trimmed.
func (y *yamlDoc) plainEnd(tk *token.Token, s int) int {
	src := y.m.Src
	if e, ok := matchText(src, s, strings.Trim(tk.Origin, " \t\r\n")); ok && e > s {
		return e
	}
	// The token did not keep its text: the scalar's line, up to a comment.
	e := y.eol(s)
	line := src[s:e]
	if i := bytes.Index(line, []byte(" #")); i >= 0 {
		line = line[:i]
	}
	return s + len(bytes.TrimRight(line, " \t"))
}

// holderColumn is the column of the first thing on the line starting at
// ls before limit, past the dashes of sequence entries: the key that holds
// a value later on the line, or the dash of the entry that holds it. It
// reports alone when the line has only spaces before limit.
func (y *yamlDoc) holderColumn(ls, limit int) (col int, alone bool) {
	src := y.m.Src
	i, dash := ls, -1
	for {
		for i < limit && src[i] == ' ' {
			i++
		}
		if i+1 < limit && src[i] == '-' && (src[i+1] == ' ' || src[i+1] == '\t') {
			dash = i
			i++
			continue
		}
		break
	}
	switch {
	case i < limit:
		return y.column(i), false
	case dash >= 0:
		return y.column(dash), false
	}
	return y.column(ls), true
}

// blockScalarSpan spans a literal or folded scalar from its indicator to
// the end of its last line of text (https://yaml.org/spec/1.2.2/#81-block-scalar-styles):
// lines indented at least as much as its first, and blank lines with spaces
// beyond that indentation, or all blank lines before the next text when it
// keeps them ("|+").
func (y *yamlDoc) blockScalarSpan(c *ast.LiteralNode) (start, end int) {
	src := y.m.Src
	start = y.off(c.Start)
	header := c.Start.Value
	end = start + len(header)
	keep := strings.Contains(header, "+")
	// The indentation of the node holding the scalar: the key before it, or
	// the dash of its entry. An indicator that begins its line is held by
	// the key on the last line before it with text.
	ls := y.lineStart(start)
	parent, alone := y.holderColumn(ls, start)
	for p := ls; alone && p > 0; {
		p = y.lineStart(p - 1)
		text := bytes.TrimLeft(src[p:y.eol(p)], " \t")
		if len(text) > 0 && text[0] != '#' {
			parent, _ = y.holderColumn(p, y.eol(p))
			break
		}
	}
	indent := -1
	if k := strings.IndexAny(header, "123456789"); k >= 0 {
		indent = parent + int(header[k]-'0')
	}
	for p := y.nextLine(end); p < len(src); {
		e := y.eol(p)
		line := src[p:e]
		lead := len(line) - len(bytes.TrimLeft(line, " "))
		if len(bytes.TrimSpace(line)) > 0 {
			if indent < 0 {
				if lead <= parent {
					break
				}
				indent = lead
			}
			if lead < indent {
				break
			}
			end = p + len(bytes.TrimRight(line, " \t"))
		} else if keep || (indent >= 0 && lead > indent) {
			end = e
		}
		next := y.nextLine(p)
		if next == p {
			break
		}
		p = next
	}
	return start, end
}
