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
	head, tail := Head(s, max/2), Tail(s, max/2)
	return head + "…[" + strconv.Itoa(len(s)-len(head)-len(tail)) + " bytes left out]…" + tail
}

// Head is the longest start of s of at most n bytes that ends on a whole
// character.
func Head[S ~string | ~[]byte](s S, n int) S {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// Tail is the longest end of s of at most n bytes that starts on a whole
// character.
func Tail[S ~string | ~[]byte](s S, n int) S {
	if len(s) <= n {
		return s
	}
	at := len(s) - n
	for at < len(s) && !utf8.RuneStart(s[at]) {
		at++
	}
	return s[at:]
}

// MaxKey bounds the bytes of a tool's name and of a pointer where mcplint
// shows them (reports, convert's warnings) or keys on them (SARIF
// fingerprints, baselines). Both come from the manifest and are repeated
// in every finding about the tool or below the key: a 100 KB name or
// property key made reports and baselines of hundreds of megabytes from a
// manifest of a hundred kilobytes. No real name or pointer comes near a
// kilobyte. Shown, a longer one is cut in the middle (Middle); keyed, it
// is kept as its start and a digest (Key).
const MaxKey = 1 << 10

// keyHead is how much of a long value its key keeps, for a reader.
const keyHead = 64

// Key returns s when it is at most max bytes long; otherwise its first
// bytes and the SHA-256 digest of the whole, which identifies it as well
// as s does and is about a hundred and fifty bytes however long s is.
func Key(s string, max int) string {
	if len(s) <= max {
		return s
	}
	sum := sha256.Sum256([]byte(s))
	return Head(s, min(keyHead, max)) + "…sha256:" + hex.EncodeToString(sum[:])
}
