// Package elide owns how mcplint shortens a stranger's long string where
// it is shown: the start and end are kept, the middle is replaced by a
// note of how many bytes were left out, so that a value of a small
// manifest repeated in every finding cannot make a report hundreds of
// megabytes long. Keys (baselines, fingerprints) are shortened to a
// digest instead, which stays stable and tells long values apart.
package elide

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"unicode/utf8"
)

// Middle returns s when it is at most max bytes long; otherwise its first
// and last max/2 bytes (cut at rune boundaries) around a note saying how
// many bytes were left out.
func Middle(s string, max int) string {
	if len(s) <= max {
		return s
	}
	head := max / 2
	for head > 0 && !utf8.RuneStart(s[head]) {
		head--
	}
	tail := len(s) - max/2
	for tail < len(s) && !utf8.RuneStart(s[tail]) {
		tail++
	}
	return s[:head] + "…[" + strconv.Itoa(tail-head) + " bytes left out]…" + s[tail:]
}

// keyHead is how much of a long value its key keeps, for a reader.
const keyHead = 64

// Key returns s when it is at most max bytes long; otherwise its first
// bytes and the SHA-256 digest of the whole, which identifies it as well
// as s does and is about a hundred and fifty bytes however long s is.
func Key(s string, max int) string {
	if len(s) <= max {
		return s
	}
	head := min(keyHead, max)
	for head > 0 && !utf8.RuneStart(s[head]) {
		head--
	}
	sum := sha256.Sum256([]byte(s))
	return s[:head] + "…sha256:" + hex.EncodeToString(sum[:])
}
