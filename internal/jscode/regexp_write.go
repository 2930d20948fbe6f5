package jscode

import (
	"fmt"
	"strings"
)

// The writer spells a parse tree as the body of a literal. Escapes,
// quantifiers and group openings are ASCII text the parser checked, written
// as read; a literal character is written as itself only when it is
// printable ASCII other than "/", and as a \u{...} escape otherwise, so the
// body holds no "/" that could end the literal, no line terminator, and no
// invisible character; a "#" after a "#" is escaped too, so the body holds
// no CI runner's command marker ("##["). Every backslash it writes starts a complete escape,
// so the body never ends in an odd backslash.

func writeAlts(b *strings.Builder, alts []reAlt) {
	for i, alt := range alts {
		if i > 0 {
			b.WriteByte('|')
		}
		for _, t := range alt {
			writeAtom(b, t.atom)
			b.WriteString(t.quant)
		}
	}
}

func writeAtom(b *strings.Builder, a reAtom) {
	switch x := a.(type) {
	case reChar:
		writeChar(b, rune(x))
	case reEscape:
		b.WriteString(string(x))
	case reSyntax:
		b.WriteString(string(x))
	case *reGroup:
		b.WriteString(x.open)
		writeAlts(b, x.alts)
		b.WriteByte(')')
	case *reClass:
		b.WriteByte('[')
		if x.negated {
			b.WriteByte('^')
		}
		for _, it := range x.items {
			writeAtom(b, it.lo)
			if it.isRange {
				b.WriteByte('-')
				writeAtom(b, it.hi)
			}
		}
		b.WriteByte(']')
	default:
		panic(fmt.Sprintf("jscode: unknown regexp node %T", a))
	}
}

// writeChar writes a character that stands for itself. In Unicode mode
// \/ is an identity escape and \u{...} names any code point, inside a
// class as outside it.
func writeChar(b *strings.Builder, r rune) {
	switch {
	case r == '/':
		b.WriteString(`\/`)
	case r >= 0x20 && r < 0x7f && !(r == '#' && afterHash(b)):
		b.WriteRune(r)
	default:
		fmt.Fprintf(b, `\u{%X}`, r)
	}
}
