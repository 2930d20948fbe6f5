// Package english holds the little grammar messages need: a plural that
// agrees with its count, and the article before a word.
package english

import "strings"

// Plural returns one when n is 1 and many otherwise.
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
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
