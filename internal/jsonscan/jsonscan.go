// Package jsonscan reads JSON text that a parser has already validated,
// without parsing it again: it owns the few scans that several packages
// run over validated bytes, where a tokenizer would redo checks already
// made.
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
