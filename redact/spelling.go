package redact

import (
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// A server chooses how it spells what it echoes, and a secret spelled
// with escapes that mcplint never writes (a JSON "\u0074" for "t", a URL's
// "%74") passes a list of known spellings. So besides the forms Add lists,
// String decodes the text, a layer at a time (JSON and Go string escapes,
// URL percent-encoding, XML character references: see unescape), looks
// for the secrets in the decoded text, and masks the bytes of the original
// that spelled them. Two layers are decoded, for a JSON document quoted
// inside a JSON string.
const decodeLayers = 2

// CutPiece bounds what a cut leaves of a secret: mcplint marks every text
// it shortens with "…", and String masks the bytes on either side of a
// "…" that are a piece of a secret (its start before the mark, its end
// after) of CutPiece bytes or more, so fewer remain. Text is masked
// before it is cut wherever the cut is made with the secrets at hand (a
// server's message); this catches the cuts made without them (a code
// frame, a quoted value).
const CutPiece = 4

// cutMark is how mcplint marks a shortened text.
const cutMark = "…"

// span is a byte range [start, end) to mask.
type span struct{ start, end int }

// spelledSpans finds, in s, what spells one of the plain secrets
// (Redactor.plain) and the pieces of them beside a cut mark, in s itself
// and in up to layers decodings of it.
func spelledSpans(s string, plain []plainSecret, layers int) []span {
	out := found(s, plain, nil)
	// A URL's query spells a space "+": the text read so is the same
	// length, so its spans are the text's.
	if strings.IndexByte(s, '+') >= 0 && slices.ContainsFunc(plain, func(p plainSecret) bool { return strings.IndexByte(p.s, ' ') >= 0 }) {
		out = found(strings.ReplaceAll(s, "+", " "), plain, out)
	}
	if layers > 0 && strings.ContainsAny(s, `\%&`) {
		if d, changed := unescape(s); changed {
			if sub := spelledSpans(d, plain, layers-1); len(sub) > 0 {
				out = append(out, rawSpans(s, sub)...)
			}
		}
	}
	return out
}

// found adds to out the occurrences in s of the plain secrets and the
// pieces of them beside a cut mark.
func found(s string, plain []plainSecret, out []span) []span {
	for _, p := range plain {
		for i := 0; ; {
			j := strings.Index(s[i:], p.s)
			if j < 0 {
				break
			}
			out = append(out, span{i + j, i + j + len(p.s)})
			i += j + 1
		}
	}
	return append(out, cutPieces(s, plain)...)
}

// cutPieces finds the pieces of secrets that touch a cut mark: a start of
// one that ends at the mark, an end of one that begins right after it. A
// cut may fall inside an escape sequence, whose remains (such as "\u00"
// before the mark, "6b" after it) decode to nothing: up to maxEscape
// bytes that can be part of one may stand between the mark and the piece,
// and are masked with it.
func cutPieces(s string, plain []plainSecret) []span {
	var out []span
	for off := 0; ; {
		i := strings.Index(s[off:], cutMark)
		if i < 0 {
			return out
		}
		at := off + i
		off = at + len(cutMark)
		for _, p := range plain {
			n := len(p.s) - 1
			for j := 0; j < maxEscape && at-j >= 0; j++ {
				if j > 0 && !escapeByte(s[at-j]) {
					break
				}
				if k := p.start.overlap(s[max(0, at-j-n):at-j], false); k >= CutPiece {
					out = append(out, span{at - j - k, at})
					break
				}
			}
			for j := 0; j < maxEscape && off+j <= len(s); j++ {
				if j > 0 && !escapeByte(s[off+j-1]) {
					break
				}
				if k := p.end.overlap(s[off+j:min(len(s), off+j+n)], true); k >= CutPiece {
					out = append(out, span{off, off + j + k})
					break
				}
			}
		}
	}
}

// maxEscape is the length of the longest escape sequence unescape reads
// (a surrogate pair, \uD83D\uDE00).
const maxEscape = 12

// escapeByte says whether c can be part of an escape sequence.
func escapeByte(c byte) bool {
	switch {
	case '0' <= c && c <= '9', 'a' <= c && c <= 'f', 'A' <= c && c <= 'F':
		return true
	}
	return strings.IndexByte(`\%&#;xXuU`, c) >= 0
}

// plainSecret is a secret as it is, with what finds its pieces.
type plainSecret struct {
	s          string
	start, end kmp // s, and s reversed
}

func newPlainSecret(s string) plainSecret {
	return plainSecret{s: s, start: newKMP(s), end: newKMP(reverse(s))}
}

// kmp finds how much of the start of a pattern a text ends with
// (Knuth-Morris-Pratt: linear in the text).
type kmp struct {
	p    string
	fail []int
}

func newKMP(p string) kmp {
	fail := make([]int, len(p))
	for i, k := 1, 0; i < len(p); i++ {
		for k > 0 && p[i] != p[k] {
			k = fail[k-1]
		}
		if p[i] == p[k] {
			k++
		}
		fail[i] = k
	}
	return kmp{p, fail}
}

// overlap is the length of the longest start of the pattern, shorter than
// it, with which text ends; backwards reads text from its end to its
// start, so that it is how much of the end of the pattern (given
// reversed) text starts with.
func (m kmp) overlap(text string, backwards bool) int {
	p := m.p
	if len(p) < 2 {
		return 0
	}
	k := 0
	for i := range len(text) {
		c := text[i]
		if backwards {
			c = text[len(text)-1-i]
		}
		for k > 0 && (k == len(p) || c != p[k]) {
			k = m.fail[k-1]
		}
		if c == p[k] {
			k++
		}
	}
	if k == len(p) {
		k = m.fail[k-1]
	}
	return k
}

func reverse(s string) string {
	b := make([]byte, len(s))
	for i := range len(s) {
		b[len(s)-1-i] = s[i]
	}
	return string(b)
}

// escape is one escape sequence of a text: the bytes [start, end) of the
// text stand for text (the decoded bytes [dstart, dend)).
type escape struct {
	start, end   int
	dstart, dend int
}

// unescape decodes one layer of escapes: JSON's (\" \\ \/ \b \f \n \r \t
// \uXXXX, surrogate pairs joined), Go's besides (\a \v \' \xXX
// \UXXXXXXXX), URL percent-encoding (%XX, either case), and XML's
// character references (&amp; &lt; &gt; &quot; &apos; &#N; &#xN;). A
// sequence that is none of these is kept as it is.
func unescape(s string) (string, bool) {
	var b strings.Builder
	last := 0
	changed := false
	walkEscapes(s, func(e escape, text string) {
		if !changed {
			b.Grow(len(s))
			changed = true
		}
		b.WriteString(s[last:e.start])
		b.WriteString(text)
		last = e.end
	})
	if !changed {
		return s, false
	}
	b.WriteString(s[last:])
	return b.String(), true
}

// walkEscapes calls f with each escape sequence of s, in order, and what
// it stands for; dstart and dend are its place in the decoded text.
func walkEscapes(s string, f func(escape, string)) {
	shift := 0 // decoded length minus raw length so far
	for i := 0; i < len(s); {
		n, text := escapeAt(s, i)
		if n == 0 {
			i++
			continue
		}
		d := i + shift
		f(escape{i, i + n, d, d + len(text)}, text)
		shift += len(text) - n
		i += n
	}
}

// escapeAt reads the escape sequence at s[i:], returning its length and
// what it stands for; 0 when there is none.
func escapeAt(s string, i int) (int, string) {
	switch s[i] {
	case '\\':
		if i+1 >= len(s) {
			return 0, ""
		}
		switch c := s[i+1]; c {
		case '"', '\\', '/', '\'':
			return 2, string(c)
		case 'b':
			return 2, "\b"
		case 'f':
			return 2, "\f"
		case 'n':
			return 2, "\n"
		case 'r':
			return 2, "\r"
		case 't':
			return 2, "\t"
		case 'a':
			return 2, "\a"
		case 'v':
			return 2, "\v"
		case 'x':
			if v, ok := hexAt(s, i+2, 2); ok {
				return 4, string([]byte{byte(v)})
			}
		case 'U':
			if v, ok := hexAt(s, i+2, 8); ok && utf8.ValidRune(rune(v)) {
				return 10, string(rune(v))
			}
		case 'u':
			v, ok := hexAt(s, i+2, 4)
			if !ok {
				return 0, ""
			}
			r := rune(v)
			if utf16.IsSurrogate(r) {
				if i+12 <= len(s) && s[i+6] == '\\' && s[i+7] == 'u' {
					if lo, ok := hexAt(s, i+8, 4); ok {
						if pair := utf16.DecodeRune(r, rune(lo)); pair != utf8.RuneError {
							return 12, string(pair)
						}
					}
				}
				return 0, ""
			}
			return 6, string(r)
		}
	case '%':
		if v, ok := hexAt(s, i+1, 2); ok {
			return 3, string([]byte{byte(v)})
		}
	case '&':
		return entityAt(s, i)
	}
	return 0, ""
}

// hexAt reads n hexadecimal digits at s[i:].
func hexAt(s string, i, n int) (uint64, bool) {
	if i+n > len(s) {
		return 0, false
	}
	var v uint64
	for _, c := range []byte(s[i : i+n]) {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		v = v<<4 | uint64(c)
	}
	return v, true
}

var entities = map[string]string{"amp": "&", "lt": "<", "gt": ">", "quot": `"`, "apos": "'"}

// entityAt reads an XML character or entity reference at s[i:].
func entityAt(s string, i int) (int, string) {
	end := strings.IndexByte(s[i:min(len(s), i+12)], ';')
	if end < 2 {
		return 0, ""
	}
	name := s[i+1 : i+end]
	if text, ok := entities[name]; ok {
		return end + 1, text
	}
	if num, ok := strings.CutPrefix(name, "#"); ok {
		base := 10
		if hex, ok := strings.CutPrefix(num, "x"); ok {
			num, base = hex, 16
		} else if hex, ok := strings.CutPrefix(num, "X"); ok {
			num, base = hex, 16
		}
		v, err := strconv.ParseUint(num, base, 32)
		if err == nil && num != "" && !strings.ContainsAny(num, "+-") && utf8.ValidRune(rune(v)) {
			return end + 1, string(rune(v))
		}
	}
	return 0, ""
}

// rawSpans turns spans of the decoding of s into spans of s: a span that
// starts or ends inside the text of an escape takes the whole escape.
func rawSpans(s string, decoded []span) []span {
	var escapes []escape
	walkEscapes(s, func(e escape, _ string) { escapes = append(escapes, e) })
	// toRaw maps a decoded offset; end says it is an exclusive end.
	toRaw := func(d int, end bool) int {
		if end {
			d-- // the last byte of the span
		}
		k := sort.Search(len(escapes), func(k int) bool { return escapes[k].dstart > d }) - 1
		if k >= 0 && d < escapes[k].dend {
			if end {
				return escapes[k].end
			}
			return escapes[k].start
		}
		raw := d
		if k >= 0 {
			raw = escapes[k].end + d - escapes[k].dend
		}
		if end {
			raw++
		}
		return raw
	}
	out := make([]span, 0, len(decoded))
	for _, sp := range decoded {
		out = append(out, span{toRaw(sp.start, false), toRaw(sp.end, true)})
	}
	return out
}

// maskSpans replaces each run of overlapping or touching spans of s with
// Mask.
func maskSpans(s string, spans []span) string {
	sort.Slice(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
	var b strings.Builder
	b.Grow(len(s))
	last := 0
	for i := 0; i < len(spans); {
		start, end := spans[i].start, spans[i].end
		for i++; i < len(spans) && spans[i].start <= end; i++ {
			end = max(end, spans[i].end)
		}
		b.WriteString(s[last:start])
		b.WriteString(Mask)
		last = end
	}
	b.WriteString(s[last:])
	return b.String()
}
