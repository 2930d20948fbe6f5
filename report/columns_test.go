package report

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mcpfit/mcplint/manifest"
)

// TestRuneColumns: code point columns along a long line of several-byte
// characters are what counting from the line's start gives, and the
// columns of 100,000 places on one line cost a few readings of the line,
// not one each.
func TestRuneColumns(t *testing.T) {
	line := strings.Repeat(`{"é€𝄞": "x"}, `, 50000)
	m := &manifest.Manifest{Src: []byte("first line\n" + line + "\nlast")}
	start := len("first line\n")
	cols := &runeColumns{m: m}
	places, want, counted := 0, 1, start
	for off := start; off < start+len(line); off += 5 {
		if !utf8.RuneStart(m.Src[off]) {
			continue
		}
		want += utf8.RuneCount(m.Src[counted:off])
		counted = off
		if got := cols.column(off, off-start+1); got != want {
			t.Fatalf("offset %d: column %d, want %d", off, got, want)
		}
		places++
	}
	if places < 100000 {
		t.Fatalf("only %d places", places)
	}
	if cols.read > 2*len(line)+places*columnStep {
		t.Errorf("%d bytes read for %d places on a line of %d", cols.read, places, len(line))
	}
	if per := cols.read / places; per > columnStep {
		t.Errorf("%d bytes read a place", per)
	}
}
