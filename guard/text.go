package guard

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Unsafe reports whether the terminal layer escapes r: a control character,
// a format character (bidirectional controls, zero-width characters, tag
// characters), a line or paragraph separator, a private-use, surrogate or
// unassigned code point, a variation selector or another default-ignorable
// code point. The last ones matter beyond terminals: .NET's culture-aware
// StartsWith and IndexOf, which a CI runner may parse its commands with,
// skip ignorable characters, so one of them before "::" would not stop the
// runner from reading a command.
func Unsafe(r rune) bool {
	switch {
	case r < 0x20 || r == 0x7f:
		return true
	case r < 0x7f:
		return false
	case r < 0xa0:
		return true // C1
	}
	return !unicode.IsGraphic(r) || unicode.Is(unicode.Variation_Selector, r) ||
		unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r)
}

// plain is the set of bytes that need no look: printable ASCII.
func plain(c byte) bool { return c >= 0x20 && c < 0x7f }

// Text returns s as it may be shown on a terminal, on one line: every
// character Unsafe reports, line breaks and tabs included, and every byte
// of invalid UTF-8, escaped. It returns s itself when nothing needs
// escaping.
func Text(s string) string { return text(s, false) }

// Lines is Text for text of several lines: it keeps the line feeds, and
// escapes the rest as Text does.
func Lines(s string) string { return text(s, true) }

func text(s string, keepLF bool) string {
	i := 0
	for i < len(s) && (plain(s[i]) || keepLF && s[i] == '\n') {
		i++
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for i < len(s) {
		c := s[i]
		if plain(c) || keepLF && c == '\n' {
			b.WriteByte(c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			b.Write(appendByteEscape(nil, c))
		case Unsafe(r):
			b.Write(appendRuneEscape(nil, r))
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

const hex = "0123456789abcdef"

// appendByteEscape appends the text escape of one byte: \n, \r, \t, or \xNN.
func appendByteEscape(b []byte, c byte) []byte {
	switch c {
	case '\n':
		return append(b, `\n`...)
	case '\r':
		return append(b, `\r`...)
	case '\t':
		return append(b, `\t`...)
	}
	return append(b, '\\', 'x', hex[c>>4], hex[c&0xf])
}

// appendRuneEscape appends the text escape of a code point: a byte's escape
// below U+0080, \uNNNN up to U+FFFF, \UNNNNNNNN above.
func appendRuneEscape(b []byte, r rune) []byte {
	switch {
	case r < 0x80:
		return appendByteEscape(b, byte(r))
	case r <= 0xffff:
		return append(b, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
	}
	b = append(b, '\\', 'U')
	for shift := 28; shift >= 0; shift -= 4 {
		b = append(b, hex[r>>uint(shift)&0xf])
	}
	return b
}
