package report

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mcpfit/mcplint/lint"
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

// TestSARIFSharedFix: a fix that many findings share is written once, with
// the first: written with each of 10,000 findings, a fix spanning the
// schema made the report grow with their square.
func TestSARIFSharedFix(t *testing.T) {
	src := []byte(`{"tools":[{"name":"t","inputSchema":{"type":"object"}}]}`)
	m, err := manifest.Load("m.json", src)
	if err != nil {
		t.Fatal(err)
	}
	fix := &lint.Fix{Message: "rewrite", Safe: true, TextEdits: []manifest.TextEdit{{Start: 30, End: 50, NewText: strings.Repeat("x", 1000)}}}
	out := sharedFixSARIF(t, m, fix, 10000)
	if n := strings.Count(out, `"artifactChanges"`); n != 1 {
		t.Errorf("the shared fix is written %d times", n)
	}
	if n := strings.Count(out, `"fix": "safe"`); n != 10000 {
		t.Errorf("%d results name the fix", n)
	}
}

// sharedFixSARIF is the SARIF report of n findings in m that share fix.
func sharedFixSARIF(t *testing.T, m *manifest.Manifest, fix *lint.Fix, n int) string {
	t.Helper()
	var ds []lint.Diagnostic
	for i := range n {
		ds = append(ds, lint.Diagnostic{Rule: "r", Severity: lint.Error, File: "m.json", Tool: "t", Pointer: fmt.Sprint("/tools/0/inputSchema/", i), Line: 1, Column: 31, Offset: 30, Message: "m", Fix: fix})
	}
	var buf bytes.Buffer
	if err := WriteSARIF(&buf, []File{{Manifest: m, Diagnostics: ds}}, SARIFOptions{}); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// TestTextChunksStartWhereTheLastStopped: findings rendered in parallel
// chunks read the same as findings rendered one after the other, on a
// line of several-byte characters far wider than the window shown: each
// chunk starts from the frame the one before it left.
func TestTextChunksStartWhereTheLastStopped(t *testing.T) {
	line := strings.Repeat(`{"é€": 1}, `, 5000)
	m := &manifest.Manifest{Path: "m.json", Src: []byte(line)}
	var ds []lint.Diagnostic
	for off := 0; off < len(line) && len(ds) < 3*textChunk; off += 13 {
		if utf8.RuneStart(line[off]) {
			ds = append(ds, lint.Diagnostic{Rule: "r", Severity: lint.Error, File: "m.json", Line: 1, Column: off + 1, Offset: off, Message: "m"})
		}
	}
	var chunked bytes.Buffer
	w := bufio.NewWriter(&chunked)
	if err := writeDiagnostics(w, renderer{f: File{Manifest: m, Diagnostics: ds}}, ds); err != nil {
		t.Fatal(err)
	}
	w.Flush()
	var one bytes.Buffer
	r := renderer{w: &one, f: File{Manifest: m, Diagnostics: ds}}
	for i := range ds {
		r.diagnostic(&ds[i])
	}
	if chunked.String() != one.String() {
		t.Error("the chunks render otherwise than one run")
	}
}

// TestSARIFSharedFixTooLarge: a fix past maxSARIFFix, whether by what it
// inserts or by the source it spans, is written with no result and named
// by none, however many findings share it; mcplint fix still applies it.
func TestSARIFSharedFixTooLarge(t *testing.T) {
	src := []byte(`{"tools":[{"name":"t","inputSchema":{"type":"object","description":"` + strings.Repeat("d", maxSARIFFix) + `"}}]}`)
	m, err := manifest.Load("m.json", src)
	if err != nil {
		t.Fatal(err)
	}
	end := len(src) - 3
	for name, edits := range map[string][]manifest.TextEdit{
		"inserts": {{Start: 30, End: 50, NewText: strings.Repeat("x", maxSARIFFix+1)}},
		"spans":   {{Start: 30, End: 31, NewText: "{"}, {Start: end - 1, End: end, NewText: "}"}},
	} {
		out := sharedFixSARIF(t, m, &lint.Fix{Message: "rewrite", Safe: true, TextEdits: edits}, 100)
		if n := strings.Count(out, `"artifactChanges"`); n != 0 {
			t.Errorf("%s: the fix past the bound is written %d times", name, n)
		}
		if n := strings.Count(out, `"fix": "safe"`); n != 0 {
			t.Errorf("%s: %d results name a fix that no result carries", name, n)
		}
		if len(out) > 100*4<<10 {
			t.Errorf("%s: %d bytes for 100 findings", name, len(out))
		}
	}
}
