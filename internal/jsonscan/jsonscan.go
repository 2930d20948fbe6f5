// Package jsonscan finds where JSON values and strings end, without
// parsing them: it owns the few scans that several packages run over JSON
// bytes, where a tokenizer would redo checks a parser already made (a
// loaded manifest) or decode what is only passed on (a proxied message,
// whose values are forwarded as they came). The scans check structure
// (brackets that match, strings, where a value ends), not the spelling of
// numbers and literals, nor commas and colons between members; they never read past their input and return -1 for what they
// cannot end, so they are safe on a stranger's bytes.
package jsonscan

import "bytes"

// StringEnd returns the offset just past the string whose opening quote is
// at src[start], and whether the string has escapes. The closing quote is
// the first one not escaped, found with vectorised searches rather than a
// loop over every byte. It returns -1 when src ends first, which valid
// JSON never does.
func StringEnd(src []byte, start int) (end int, escaped bool) {
	end = start + 1
	for {
		q := bytes.IndexByte(src[end:], '"')
		if q < 0 {
			return -1, escaped
		}
		if b := bytes.IndexByte(src[end:end+q], '\\'); b >= 0 {
			escaped = true
			end += b + 2 // past the escaped character, which may be '"'
			continue
		}
		return end + q + 1, escaped
	}
}

// IsSpace says whether c is JSON white space.
func IsSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// SkipSpace returns the offset of the first byte of b at or after i that
// is not JSON white space (len(b) when there is none).
func SkipSpace(b []byte, i int) int {
	for i < len(b) && IsSpace(b[i]) {
		i++
	}
	return i
}

// ValueEnd returns the offset just past the JSON value that starts at
// b[i], or -1 when no value starts there, b ends inside it, or a bracket
// closes one of the other kind. Nesting is followed however deep, one bit
// a level: the input's size bounds it, and a caller that could not find
// the end of a deep value could not route or measure the message that
// holds it.
func ValueEnd(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		end, _ := StringEnd(b, i)
		return end
	case '{', '[':
		// open holds a bit a level, set for an object.
		var open []uint64
		depth := 0
		for i < len(b) {
			switch c := b[i]; c {
			case '"':
				end, _ := StringEnd(b, i)
				if end < 0 {
					return -1
				}
				i = end
				continue
			case '{', '[':
				if depth/64 == len(open) {
					open = append(open, 0)
				}
				bit := uint64(1) << (depth % 64)
				if c == '{' {
					open[depth/64] |= bit
				} else {
					open[depth/64] &^= bit
				}
				depth++
			case '}', ']':
				depth--
				if object := open[depth/64]&(uint64(1)<<(depth%64)) != 0; object != (c == '}') {
					return -1
				}
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return -1
	}
	// A number or a literal: it ends where a structural character or
	// white space does; a quote, an opening bracket or a colon inside it
	// is no value.
	start := i
	for ; i < len(b); i++ {
		switch b[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			if i == start {
				return -1
			}
			return i
		case '"', '{', '[', ':':
			return -1
		}
	}
	return i
}
