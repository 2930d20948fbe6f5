package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mcpfit/mcplint/guard"
	"github.com/mcpfit/mcplint/pointer"
)

// frameContext is how many lines a server finding's frame shows before
// and after the marked one.
const frameContext = 2

// frame of a server finding: a window of the entry pretty-printed, with
// the line of the place (at, 0-based in the whole print) and where on it
// the mark goes (col and span, in characters).
type serverFrame struct {
	lines         []string
	first         int // the print's line number of lines[0], 0-based
	at, col, span int
	total         int // lines in the whole print
}

// width is the gutter's width: the widest line number shown.
func (f serverFrame) width() int {
	return max(len(strconv.Itoa(f.first+len(f.lines))), 1)
}

// prettyFrame pretty-prints raw (one JSON value) two spaces an indent,
// keeping its members' order and its numbers' spelling, and returns the
// window around the member or element at the pointer rel: its key marked,
// or, for the whole value or an element, its first character. A pointer to
// something missing (a keyword to add) marks its nearest ancestor.
func prettyFrame(raw []byte, rel string) serverFrame {
	if raw == nil {
		return serverFrame{}
	}
	return printJSON(raw).frame(rel)
}

// printed is a value pretty-printed, with where each of its members and
// elements starts, by JSON Pointer: a tool's findings share one print.
type printed struct {
	raw   []byte
	lines []string
	marks map[string]mark
}

// printJSON pretty-prints raw.
func printJSON(raw []byte) *printed {
	pp := &printer{dec: json.NewDecoder(bytes.NewReader(raw)), marks: map[string]mark{"": {span: 1}}}
	pp.dec.UseNumber()
	if tok, err := pp.dec.Token(); err == nil {
		pp.value(tok, 0, "")
	}
	pp.newline()
	return &printed{raw: raw, lines: pp.lines, marks: pp.marks}
}

// of reports whether p is the print of raw, the same bytes in memory.
func (p *printed) of(raw []byte) bool {
	return p != nil && len(p.raw) == len(raw) && (len(raw) == 0 || &p.raw[0] == &raw[0])
}

// frame is the window around rel, or its nearest ancestor printed.
func (p *printed) frame(rel string) serverFrame {
	tokens := pointer.Split(rel)
	var m mark
	for k := len(tokens); k >= 0; k-- {
		var ok bool
		if m, ok = p.marks[pointer.Join(tokens[:k])]; ok {
			break
		}
	}
	f := serverFrame{total: len(p.lines), at: m.line, col: m.col, span: m.span}
	// The line is clipped at snippetWidth characters (clipLine), and so is
	// the mark under it: under a 100 KB key it was a line of 100 KB of
	// carets.
	f.col = min(f.col, snippetWidth)
	f.span = max(1, min(f.span, snippetWidth+1-f.col))
	lo := max(0, f.at-frameContext)
	hi := min(len(p.lines), f.at+frameContext+1)
	f.first = lo
	for _, l := range p.lines[lo:hi] {
		f.lines = append(f.lines, clipLine(l))
	}
	return f
}

// mark is where a member or element starts in the print.
type mark struct {
	line, col, span int
}

// printer writes the pretty print line by line, marking every member and
// element.
type printer struct {
	dec   *json.Decoder
	lines []string
	cur   strings.Builder
	marks map[string]mark
}

func (p *printer) newline() {
	p.lines = append(p.lines, p.cur.String())
	p.cur.Reset()
}

func (p *printer) indent(n int) { p.cur.WriteString(strings.Repeat("  ", n)) }

// col is the current column in characters.
func (p *printer) col() int { return utf8.RuneCountInString(p.cur.String()) }

// value prints the value whose first token is tok, at depth, path being
// where it is.
func (p *printer) value(tok json.Token, depth int, ptr string) {
	switch tok {
	case json.Delim('{'):
		p.members(depth, '{', '}', func(int) (string, string, bool) {
			kt, err := p.dec.Token()
			key, _ := kt.(string)
			quoted := quote(key)
			return key, quoted + ": ", err == nil
		}, ptr)
	case json.Delim('['):
		p.members(depth, '[', ']', func(i int) (string, string, bool) {
			return strconv.Itoa(i), "", true
		}, ptr)
	default:
		switch v := tok.(type) {
		case string:
			p.cur.WriteString(quote(v))
		case json.Number:
			p.cur.WriteString(v.String())
		case bool:
			p.cur.WriteString(strconv.FormatBool(v))
		case nil:
			p.cur.WriteString("null")
		}
	}
}

// members prints an object or an array: each member on a line of its
// own, one level deeper, after the prefix next gives it (a key, for an
// object) with the pointer token that names it, marked under its pointer.
func (p *printer) members(depth int, open, close byte, next func(i int) (token, prefix string, ok bool), ptr string) {
	p.cur.WriteByte(open)
	for i := 0; p.dec.More(); i++ {
		if i > 0 {
			p.cur.WriteByte(',')
		}
		p.newline()
		p.indent(depth + 1)
		token, prefix, ok := next(i)
		if !ok {
			return
		}
		sub := pointer.Append(ptr, token)
		span := utf8.RuneCountInString(strings.TrimSuffix(prefix, ": "))
		p.marks[sub] = mark{line: len(p.lines), col: p.col(), span: max(span, 1)}
		p.cur.WriteString(prefix)
		vt, err := p.dec.Token()
		if err != nil {
			return
		}
		p.value(vt, depth+1, sub)
	}
	_, _ = p.dec.Token()
	if p.cur.Len() > 0 && p.cur.String()[p.cur.Len()-1] != open {
		p.newline()
		p.indent(depth)
	}
	p.cur.WriteByte(close)
}

// quote spells a string as JSON does, escaping what JSON must (the quote,
// the backslash, control characters) and nothing else; guard.Text then
// escapes, for the terminal, what JSON leaves as it is.
func quote(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// clipLine cuts a line of the print to snippetWidth characters and shows
// it through guard.Text: JSON escapes control characters, not the format
// characters (U+202E) a terminal or a reader is fooled by.
func clipLine(s string) string {
	if utf8.RuneCountInString(s) > snippetWidth {
		s = string([]rune(s)[:snippetWidth]) + "…"
	}
	return guard.Text(s)
}
