package report

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mcpfit/mcplint/guard"
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
	pp := &printer{dec: json.NewDecoder(bytes.NewReader(raw)), target: splitPointer(rel)}
	pp.dec.UseNumber()
	pp.best = mark{depth: 0, line: 0, col: 0, span: 1}
	if tok, err := pp.dec.Token(); err == nil {
		pp.value(tok, 0, nil)
	}
	pp.newline()
	f := serverFrame{total: len(pp.lines), at: pp.best.line, col: pp.best.col, span: pp.best.span}
	lo := max(0, f.at-frameContext)
	hi := min(len(pp.lines), f.at+frameContext+1)
	f.first = lo
	for _, l := range pp.lines[lo:hi] {
		f.lines = append(f.lines, clipLine(l))
	}
	return f
}

// mark is where the deepest part of the pointer found so far starts.
type mark struct {
	depth, line, col, span int
}

// printer writes the pretty print line by line, following the pointer.
type printer struct {
	dec    *json.Decoder
	target []string
	lines  []string
	cur    strings.Builder
	best   mark
}

func (p *printer) newline() {
	p.lines = append(p.lines, p.cur.String())
	p.cur.Reset()
}

func (p *printer) indent(n int) { p.cur.WriteString(strings.Repeat("  ", n)) }

// col is the current column in characters.
func (p *printer) col() int { return utf8.RuneCountInString(p.cur.String()) }

// matches reports whether path is the target's first len(path) tokens.
func (p *printer) matches(path []string) bool {
	if len(path) > len(p.target) {
		return false
	}
	for i := range path {
		if path[i] != p.target[i] {
			return false
		}
	}
	return true
}

// value prints the value whose first token is tok, at depth, path being
// where it is.
func (p *printer) value(tok json.Token, depth int, path []string) {
	switch tok {
	case json.Delim('{'):
		p.members(depth, '{', '}', func(int) (string, string, bool) {
			kt, err := p.dec.Token()
			key, _ := kt.(string)
			quoted := quote(key)
			return key, quoted + ": ", err == nil
		}, path)
	case json.Delim('['):
		p.members(depth, '[', ']', func(i int) (string, string, bool) {
			return strconv.Itoa(i), "", true
		}, path)
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
// object) with the pointer token that names it, and marks the one the
// pointer goes deepest into.
func (p *printer) members(depth int, open, close byte, next func(i int) (token, prefix string, ok bool), path []string) {
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
		sub := append(path[:len(path):len(path)], token)
		if p.matches(sub) && len(sub) > p.best.depth {
			span := utf8.RuneCountInString(strings.TrimSuffix(prefix, ": "))
			p.best = mark{depth: len(sub), line: len(p.lines), col: p.col(), span: max(span, 1)}
		}
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

// quote spells a string as JSON does, without escaping HTML.
func quote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// splitPointer returns the unescaped tokens of a JSON Pointer.
func splitPointer(ptr string) []string {
	if ptr == "" {
		return nil
	}
	parts := strings.Split(strings.TrimPrefix(ptr, "/"), "/")
	for i, s := range parts {
		parts[i] = strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
	}
	return parts
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
