package rules

import (
	"regexp/syntax"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The security rules run dozens of regular expressions over every text a
// tool shows the model, and nearly every text matches none: Go's engine
// still walks each text once per expression. Most expressions cannot match
// without one of a few words ("ignore", "instruction", …), which a
// substring search finds far faster. needed works out such words from an
// expression's syntax, and a text without any of them is not handed to the
// expression at all. The words and the text are compared case-folded
// (folded), so an expression matching without regard to case is never
// skipped wrongly.

// needed returns folded strings one of which every match of the
// expression contains, or nil when the expression promises none.
func needed(expr string) []string {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil
	}
	return required(re.Simplify())
}

func required(re *syntax.Regexp) []string {
	switch re.Op {
	case syntax.OpLiteral:
		return []string{folded(string(re.Rune))}
	case syntax.OpCapture, syntax.OpPlus:
		return required(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return required(re.Sub[0])
		}
	case syntax.OpAlternate:
		var out []string
		for _, sub := range re.Sub {
			r := required(sub)
			if r == nil {
				return nil
			}
			out = append(out, r...)
		}
		return out
	case syntax.OpConcat:
		// Every part is in every match: the part whose words are the
		// longest, at the shortest, filters best.
		var best []string
		for _, sub := range re.Sub {
			if r := required(sub); r != nil && (best == nil || shortest(r) > shortest(best)) {
				best = r
			}
		}
		return best
	}
	return nil
}

func shortest(words []string) int {
	n := len(words[0])
	for _, w := range words[1:] {
		n = min(n, len(w))
	}
	return n
}

// folded maps every character of s to the least of its case-folding orbit
// (unicode.SimpleFold), the same for "K", "k" and the Kelvin sign, as a
// case-insensitive expression matches them alike.
func folded(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		// Within ASCII the least of an orbit is the upper case, but for
		// "k" and "s", whose orbits hold non-ASCII characters above them.
		return strings.ToUpper(s)
	}
	return strings.Map(foldRune, s)
}

func foldRune(r rune) rune {
	least := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		least = min(least, f)
	}
	return least
}

// mayMatch reports whether a text, folded, holds one of the words a
// pattern needs (or the pattern names none).
func (pt *pattern) mayMatch(foldedText string) bool {
	return pt.need == nil || slices.ContainsFunc(pt.need, func(w string) bool { return strings.Contains(foldedText, w) })
}
