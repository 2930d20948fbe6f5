package tokens

import (
	"unicode"
	"unicode/utf8"
)

// pieceKind is what a pre-token is made of.
type pieceKind uint8

const (
	word pieceKind = iota
	digits
	punct
	space
)

// piece is one pre-token: the text a BPE tokenizer merges into tokens on
// its own, never across its edges.
type piece struct {
	kind pieceKind
	// n is its length in characters, a leading space or punctuation
	// character of a word included.
	n int
	// upper is true for a word of capitals only (an acronym, a constant).
	upper bool
	// ascii is true when every character is ASCII; wide when a letter is
	// of a script past the alphabets of Europe, the Middle East and India
	// (Thai, the CJK scripts, …), which encodings spend more tokens on.
	ascii, wide bool
}

// Character classes.
const (
	cOther   uint8 = iota // punctuation and symbols
	cLower                // small letters, and letters without case
	cUpper                // capitals
	cDigit                // numbers
	cSpace                // white space but line breaks
	cNewline              // \r and \n
)

// asciiClass classifies the ASCII characters.
var asciiClass = func() (t [utf8.RuneSelf]uint8) {
	for c := range utf8.RuneSelf {
		switch {
		case 'a' <= c && c <= 'z':
			t[c] = cLower
		case 'A' <= c && c <= 'Z':
			t[c] = cUpper
		case '0' <= c && c <= '9':
			t[c] = cDigit
		case c == '\r' || c == '\n':
			t[c] = cNewline
		case c == ' ' || c == '\t' || c == '\v' || c == '\f':
			t[c] = cSpace
		}
	}
	return t
}()

// classAt is the class of the character at s[i] and its size (inlined:
// nearly every character of a tool definition is ASCII).
func classAt(s string, i int) (uint8, int) {
	if c := s[i]; c < utf8.RuneSelf {
		return asciiClass[c], 1
	}
	return classOf(s[i:])
}

// classOf is the class of the character s starts with, outside ASCII.
func classOf(s string) (uint8, int) {
	r, size := utf8.DecodeRuneInString(s)
	switch {
	case unicode.IsUpper(r) || unicode.IsTitle(r):
		return cUpper, size
	case unicode.IsLetter(r) || unicode.Is(unicode.M, r):
		return cLower, size
	case unicode.IsNumber(r):
		return cDigit, size
	case r == '\u0085' || r == '\u2028' || r == '\u2029':
		return cSpace, size
	case unicode.IsSpace(r):
		return cSpace, size
	}
	return cOther, size
}

func isLetter(c uint8) bool { return c == cLower || c == cUpper }

// next reads the pre-token at s[i:] as the pre-tokenizer of OpenAI's
// o200k_base encoding splits text (a regular expression: words of letters
// in case runs, with one leading character that is no letter, digit or
// line break; numbers of up to three digits; runs of punctuation with an
// optional leading space; white space), and returns it with its end.
func next(s string, i int) (piece, int) {
	c, size := classAt(s, i)
	// A word, with a leading character.
	j, n := i, 0
	if c == cOther || c == cSpace {
		if i+size < len(s) {
			if c2, _ := classAt(s, i+size); isLetter(c2) {
				j, n = i+size, 1
			}
		}
	}
	if n > 0 || isLetter(c) {
		p, k := letters(s, j)
		p.n += n
		p.ascii = p.ascii && s[i] < utf8.RuneSelf
		return p, k
	}
	switch c {
	case cDigit:
		k, m := i, 0
		for k < len(s) && m < 3 {
			c2, sz := classAt(s, k)
			if c2 != cDigit {
				break
			}
			k += sz
			m++
		}
		return piece{kind: digits, n: m, ascii: true}, k
	case cSpace, cNewline:
		// White space ending in line breaks ends at the last one;
		// otherwise its last character goes with what follows, and a
		// single space before punctuation starts the punctuation's run.
		k, m, lastNL, mAtNL := i, 0, -1, 0
		for k < len(s) {
			c2, sz := classAt(s, k)
			if c2 != cSpace && c2 != cNewline {
				break
			}
			k += sz
			m++
			if c2 == cNewline {
				lastNL, mAtNL = k, m
			}
		}
		switch {
		case lastNL > 0:
			return piece{kind: space, n: mAtNL, ascii: true}, lastNL
		case k == len(s):
			return piece{kind: space, n: m, ascii: true}, k
		case m > 1:
			_, last := lastRune(s[:k])
			return piece{kind: space, n: m - 1, ascii: true}, k - last
		case s[i] == ' ':
			if pm, pk := punctRun(s, i+1); pk > i+1 {
				return piece{kind: punct, n: pm + 1, ascii: true}, pk
			}
		}
		return piece{kind: space, n: 1, ascii: true}, k
	}
	m, k := punctRun(s, i)
	return piece{kind: punct, n: m, ascii: s[i] < utf8.RuneSelf && k-i == m}, k
}

func lastRune(s string) (rune, int) { return utf8.DecodeLastRuneInString(s) }

// letters reads a word's letters from s[i:]: capitals then small letters
// (at least one), or capitals alone, and an English contraction.
func letters(s string, i int) (piece, int) {
	k, caps, small := i, 0, 0
	ascii, wide := true, false
	for k < len(s) {
		// Small ASCII letters are most of every text: read them in a
		// tight loop.
		if b := s[k]; 'a' <= b && b <= 'z' {
			k++
			small++
			for k < len(s) && 'a' <= s[k] && s[k] <= 'z' {
				k++
				small++
			}
			continue
		}
		c, sz := classAt(s, k)
		if !isLetter(c) || (small > 0 && c != cLower) {
			break
		}
		if c == cLower {
			small++
		} else {
			caps++
		}
		if sz > 1 {
			ascii = false
			if r, _ := utf8.DecodeRuneInString(s[k:]); r >= '\u0e00' {
				wide = true
			}
		}
		k += sz
	}
	n := caps + small
	if k+1 < len(s) && s[k] == '\'' {
		for _, c := range [...]string{"s", "t", "re", "ve", "m", "ll", "d"} {
			if len(s) >= k+1+len(c) && s[k+1:k+1+len(c)] == c {
				k += 1 + len(c)
				n += 1 + len(c)
				break
			}
		}
	}
	return piece{kind: word, n: n, upper: small == 0, ascii: ascii, wide: wide}, k
}

// punctRun reads a run of characters that are no white space, letter or
// number from s[i:], and the line breaks and slashes after it; n counts
// its characters.
func punctRun(s string, i int) (n, end int) {
	k := i
	for k < len(s) {
		c, sz := classAt(s, k)
		if c != cOther {
			break
		}
		k += sz
		n++
	}
	if n == 0 {
		return 0, i
	}
	for k < len(s) && (s[k] == '\r' || s[k] == '\n' || s[k] == '/') {
		k++
		n++
	}
	return n, k
}

// pieces calls f with each pre-token of s and its text.
func pieces(s string, f func(piece, string)) {
	for i := 0; i < len(s); {
		p, k := next(s, i)
		f(p, s[i:k])
		i = k
	}
}
