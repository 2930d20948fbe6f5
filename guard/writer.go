package guard

import (
	"io"
	"sync"
	"unicode"
	"unicode/utf8"
)

// syntax is how a Writer spells what it escapes.
type syntax int

const (
	textSyntax syntax = iota // \x1b, \u202e: the terminal layer's escapes
	jsonSyntax               // \u001b, \u202e, surrogate pairs above U+FFFF
	xmlSyntax                // &#x202E;
)

// Writer is the CI-log layer, and the last line of defence of the terminal
// layer, over a stream: see the package doc for what it escapes. It holds
// at most a few bytes between writes (an unfinished character, colour
// sequence or command marker); Flush writes them. A Writer is safe for
// concurrent use.
type Writer struct {
	mu    sync.Mutex
	w     io.Writer
	syn   syntax
	color bool
	// lineStart: nothing but white space (and colour sequences) has been
	// written on the current line.
	lineStart bool
	hold, out []byte
}

// NewWriter returns a Writer of text to w. With color, mcplint's SGR colour
// sequences (ESC [ digits and semicolons m) pass; every other escape
// sequence is shown escaped. When w is itself a text Writer, NewWriter
// returns it, allowing colour on it when color is set: a stream is guarded
// once, and a report that colours its text is what decided colour for it.
func NewWriter(w io.Writer, color bool) *Writer {
	if g, ok := w.(*Writer); ok && g.syn == textSyntax {
		if color {
			g.mu.Lock()
			g.color = true
			g.mu.Unlock()
		}
		return g
	}
	return &Writer{w: w, syn: textSyntax, color: color, lineStart: true}
}

// NewJSONWriter returns a Writer of a JSON document to w: what it escapes
// it writes as JSON escapes, so that the document decodes to the same
// values.
func NewJSONWriter(w io.Writer) *Writer {
	return &Writer{w: under(w), syn: jsonSyntax, lineStart: true}
}

// NewXMLWriter returns a Writer of an XML document to w: what it escapes it
// writes as character references, so that the document reads back to the
// same text.
func NewXMLWriter(w io.Writer) *Writer {
	return &Writer{w: under(w), syn: xmlSyntax, lineStart: true}
}

// under is the writer under a text Writer: what a JSON or XML Writer
// writes holds nothing a text Writer would change (no raw character it
// escapes, no marker, no line starting with "::"), and a report of a
// hundred thousand findings should not be read twice.
func under(w io.Writer) io.Writer {
	if g, ok := w.(*Writer); ok && g.syn == textSyntax {
		if u, err := g.Unguarded(); err == nil {
			return u
		}
	}
	return w
}

// Write writes p, guarded. It returns len(p) unless the underlying writer
// fails.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	data := p
	if len(w.hold) > 0 {
		w.hold = append(w.hold, p...)
		data = w.hold
	}
	n := w.scan(data, false)
	if cap(w.hold) > 1<<12 {
		w.hold = append([]byte(nil), data[n:]...)
	} else {
		w.hold = append(w.hold[:0], data[n:]...)
	}
	if err := w.emit(); err != nil {
		return 0, err
	}
	return len(p), nil
}

// WriteString is Write for a string.
func (w *Writer) WriteString(s string) (int, error) { return w.Write([]byte(s)) }

// Flush writes what is held: an unfinished character is invalid UTF-8 by
// now and is escaped as such.
func (w *Writer) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.flush()
}

func (w *Writer) flush() error {
	if len(w.hold) > 0 {
		w.scan(w.hold, true)
		w.hold = w.hold[:0]
	}
	return w.emit()
}

// Unguarded flushes w and returns the writer under it, for output that
// mcplint builds entirely from guarded parts and whose own markers must
// reach the sink: the workflow commands of the github format.
func (w *Writer) Unguarded() (io.Writer, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.w, w.flush()
}

func (w *Writer) emit() error {
	if len(w.out) == 0 {
		return nil
	}
	_, err := w.w.Write(w.out)
	if cap(w.out) > 1<<16 {
		w.out = nil
	} else {
		w.out = w.out[:0]
	}
	return err
}

// plainRun marks the bytes that pass as they are wherever they stand:
// printable ASCII but "#", which may begin a command marker.
var plainRun = func() (t [256]bool) {
	for c := 0x20; c < 0x7f; c++ {
		t[c] = c != '#'
	}
	return
}()

// scan guards data into w.out and returns how much of it it consumed: all
// of it when final, otherwise all but an unfinished token at its end.
func (w *Writer) scan(data []byte, final bool) int {
	i := 0
	for i < len(data) {
		if !w.lineStart {
			j := i
			for j < len(data) && plainRun[data[j]] {
				j++
			}
			w.out = append(w.out, data[i:j]...)
			if i = j; i == len(data) {
				break
			}
		}
		c := data[i]
		switch {
		case c == '\n':
			w.out = append(w.out, c)
			w.lineStart = true
			i++
		case c == ' ' || c == '\t':
			j := i + 1
			for j < len(data) && (data[j] == ' ' || data[j] == '\t') {
				j++
			}
			w.out = append(w.out, data[i:j]...)
			i = j
		case c == ':' && w.lineStart:
			if i+1 == len(data) && !final {
				return i
			}
			w.lineStart = false
			if i+1 < len(data) && data[i+1] == ':' {
				w.out = w.escapeRune(w.out, ':')
			} else {
				w.out = append(w.out, ':')
			}
			i++
		case c == '#':
			full, partial := marker(data[i:])
			if partial && !final {
				return i
			}
			w.lineStart = false
			w.out = append(w.out, '#')
			i++
			if full {
				w.out = w.escapeRune(w.out, '#')
				i++
			}
		case c == 0x1b && w.color:
			n, partial := sgr(data[i:])
			if partial && !final {
				return i
			}
			if n > 0 {
				w.out = append(w.out, data[i:i+n]...)
				i += n
				continue
			}
			w.lineStart = false
			w.out = w.escapeRune(w.out, rune(c))
			i++
		case c < 0x80:
			w.lineStart = false
			if plain(c) {
				w.out = append(w.out, c)
			} else {
				w.out = w.escapeRune(w.out, rune(c))
			}
			i++
		default:
			if !final && !utf8.FullRune(data[i:]) {
				return i
			}
			r, size := utf8.DecodeRune(data[i:])
			switch {
			case r == utf8.RuneError && size <= 1:
				w.lineStart = false
				w.out = w.escapeByte(w.out, c)
			case Unsafe(r):
				w.lineStart = false
				w.out = w.escapeRune(w.out, r)
			default:
				// .NET's TrimStart, which the runner calls before looking
				// for "::", trims Unicode white space too.
				w.lineStart = w.lineStart && unicode.IsSpace(r)
				w.out = append(w.out, data[i:i+size]...)
			}
			i += size
		}
	}
	return len(data)
}

// marker reports whether d starts with a runner's command marker ("##[",
// "##vso[", in any case), or, partial, with only a beginning of one that d
// ends in.
func marker(d []byte) (full, partial bool) {
	for _, m := range [...]string{"##[", "##vso["} {
		n := min(len(d), len(m))
		if equalFold(d[:n], m[:n]) {
			if n == len(m) {
				return true, false
			}
			partial = true
		}
	}
	return false, partial
}

func equalFold(b []byte, s string) bool {
	for i := range b {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != s[i] {
			return false
		}
	}
	return true
}

// maxSGR bounds the parameters of a colour sequence that passes.
const maxSGR = 32

// sgr returns the length of the SGR sequence (ESC [ digits and semicolons
// m) d starts with, 0 when it starts with none, or partial when d ends
// before the sequence could be told.
func sgr(d []byte) (n int, partial bool) {
	if len(d) < 2 {
		return 0, true
	}
	if d[1] != '[' {
		return 0, false
	}
	for i := 2; i < len(d) && i < 2+maxSGR; i++ {
		switch c := d[i]; {
		case c == 'm':
			return i + 1, false
		case c >= '0' && c <= '9' || c == ';':
		default:
			return 0, false
		}
	}
	return 0, len(d) < 2+maxSGR
}

// escapeByte writes a byte that is not UTF-8.
func (w *Writer) escapeByte(b []byte, c byte) []byte {
	switch w.syn {
	case jsonSyntax:
		return append(b, `\ufffd`...) // the encoders never write one
	case xmlSyntax:
		return append(b, "&#xFFFD;"...)
	}
	return appendByteEscape(b, c)
}

// escapeRune writes r in the Writer's escape syntax.
func (w *Writer) escapeRune(b []byte, r rune) []byte {
	switch w.syn {
	case jsonSyntax:
		if r > 0xffff {
			r1, r2 := utf16Pair(r)
			return appendJSONEscape(appendJSONEscape(b, r1), r2)
		}
		return appendJSONEscape(b, r)
	case xmlSyntax:
		if r < 0x20 && r != '\t' && r != '\n' && r != '\r' {
			// XML 1.0 has no character reference for these: the text
			// escape, as literal text.
			return appendByteEscape(b, byte(r))
		}
		b = append(b, "&#x"...)
		started := false
		for shift := 20; shift >= 0; shift -= 4 {
			d := r >> uint(shift) & 0xf
			if d != 0 || started || shift == 0 {
				b = append(b, "0123456789ABCDEF"[d])
				started = true
			}
		}
		return append(b, ';')
	}
	return appendRuneEscape(b, r)
}

func appendJSONEscape(b []byte, r rune) []byte {
	return append(b, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
}

func utf16Pair(r rune) (rune, rune) {
	r -= 0x10000
	return 0xd800 + (r>>10)&0x3ff, 0xdc00 + r&0x3ff
}
