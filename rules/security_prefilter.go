package rules

import (
	"regexp/syntax"
	"strings"
	"unicode"
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

// needed returns groups of folded strings such that every match of the
// expression contains one string of each group, or nil when the expression
// promises none. Every group must be met: "do not … tell … user" needs
// one of the negations, one of the verbs and one of the nouns, and a text
// that has "user" alone (most texts of a tool that manages users) is not
// handed to the expression.
func needed(expr string) [][]string {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil
	}
	return required(re.Simplify())
}

func required(re *syntax.Regexp) [][]string {
	switch re.Op {
	case syntax.OpLiteral:
		return [][]string{{folded(string(re.Rune))}}
	case syntax.OpCapture, syntax.OpPlus:
		return required(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return required(re.Sub[0])
		}
	case syntax.OpAlternate:
		// A match holds one alternative's match: the union of the best
		// group of each alternative.
		var out []string
		for _, sub := range re.Sub {
			r := required(sub)
			if r == nil {
				return nil
			}
			out = append(out, best(r)...)
		}
		return [][]string{out}
	case syntax.OpConcat:
		// Every part is in every match.
		var out [][]string
		for _, sub := range re.Sub {
			out = append(out, required(sub)...)
		}
		return out
	}
	return nil
}

// best is the group that filters best: the one whose words are the
// longest, at the shortest.
func best(groups [][]string) []string {
	var b []string
	for _, g := range groups {
		if b == nil || shortest(g) > shortest(b) {
			b = g
		}
	}
	return b
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
func folded(s string) string { return foldAs(s, isASCII(s)) }

// foldAs is folded for a caller that knows whether s is ASCII.
func foldAs(s string, ascii bool) string {
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

// mayMatch reports whether a text, folded, holds one of the words of each
// group a pattern needs (true when it needs none).
func (pt *pattern) mayMatch(t foldedText) bool {
	for i, g := range pt.need {
		found := false
		for j, w := range g {
			if t.pairs.has(pt.pairs[i][j]) && strings.Contains(t.s, w) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// foldedText is a text folded (see folded), with the pairs of adjacent
// bytes it holds.
type foldedText struct {
	s     string
	pairs pairSet
	ascii bool // s is ASCII, so folding it is strings.ToUpper
}

func fold(s string) foldedText {
	ascii := isASCII(s)
	f := foldAs(s, ascii)
	return foldedText{f, pairsOf(f), ascii}
}

// asciiPairs returns, for each string of list, the pairs of the string
// upper-cased when it is ASCII, which a text ASCII too must hold to hold
// the string in any case, and the empty set (which every text holds)
// otherwise. A rule works out its option's list once per tool, not once
// per text.
func asciiPairs(list []string) []pairSet {
	out := make([]pairSet, len(list))
	for i, s := range list {
		if isASCII(s) {
			out[i] = pairsOf(strings.ToUpper(s))
		}
	}
	return out
}

// pairSet is a set of pairs of adjacent bytes, hashed into 512 bits. A word
// can be in a text only if the text holds every pair of the word: a test
// of a few machine words that, at a text's few hundred pairs, rules out
// nearly every absent word before any substring search, of which the
// security rules made dozens per text.
type pairSet [8]uint64

func pairsOf(s string) pairSet {
	var p pairSet
	for i := 0; i+1 < len(s); i++ {
		h := (uint(s[i])*31 + uint(s[i+1])) & 511
		p[h>>6] |= 1 << (h & 63)
	}
	return p
}

// has reports whether p holds every pair of q.
func (p *pairSet) has(q pairSet) bool {
	for i := range p {
		if p[i]&q[i] != q[i] {
			return false
		}
	}
	return true
}

// pairsOfNeeded is pairsOf of each word of groups.
func pairsOfNeeded(groups [][]string) [][]pairSet {
	out := make([][]pairSet, len(groups))
	for i, g := range groups {
		for _, w := range g {
			out[i] = append(out[i], pairsOf(w))
		}
	}
	return out
}
