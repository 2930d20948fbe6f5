// Package english holds the little grammar messages need: a plural that
// agrees with its count, and the article before a word.
package english

import (
	"strconv"
	"strings"
)

// Plural returns one when n is 1 and many otherwise.
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Count says how many of a noun there are, the noun agreeing with the
// count: "1 server", "2 servers", "0 fixes". The plural is the regular
// one: -es after s, x, z, ch and sh, -s otherwise.
func Count(n int, noun string) string {
	many := noun + "s"
	for _, end := range []string{"s", "x", "z", "ch", "sh"} {
		if strings.HasSuffix(noun, end) {
			many = noun + "es"
		}
	}
	return strconv.Itoa(n) + " " + Plural(n, noun, many)
}

// A puts "a" or "an" before word, by its first letter ("an array", "a
// string"); it knows no exceptions such as "a user" or "an hour", which
// the words messages name do not need.
func A(word string) string {
	if word != "" && strings.ContainsRune("aeiouAEIOU", rune(word[0])) {
		return "an " + word
	}
	return "a " + word
}

// Join lists words as a sentence does: "a", "a and b", "a, b and c".
func Join(words []string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}
