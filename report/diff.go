package report

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"
)

// diffContext is the number of unchanged lines shown around each change, as
// `diff -u` and `git diff` show.
const diffContext = 3

// Diff returns a unified diff from old to new, the contents of the file at
// name, or "" when they are equal. The headers name a/NAME and b/NAME (NAME
// with forward slashes, cleaned), as git does, so `git apply` and
// `patch -p1` accept it from the directory name is relative to; a name git
// would need to quote (spaces at its ends, quotes, backslashes, control
// characters, non-ASCII characters) is quoted as git quotes it, "##" too
// (see quotePath).
//
// The hunks are those of GNU `diff -u`: the same lines marked changed (see
// lineDiff), three lines of context, changes at most six lines apart in one
// hunk, ranges written "start,count" (the count left out when it is 1, an
// empty range starting at the line before it), and "\ No newline at end of
// file" after a last line without one. So the patch applies at exactly the
// lines its headers name, and reads as the one a reviewer would make.
func Diff(name string, old, new []byte) (string, error) {
	if string(old) == string(new) {
		return "", nil
	}
	p := path.Clean(filepath.ToSlash(name))
	a, _ := splitLines(string(old))
	b, _ := splitLines(string(new))
	changes := lineChanges(lineDiff(a, b, diffContext))
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", quotePath("a/"+p), quotePath("b/"+p))
	for len(changes) > 0 {
		n := 1 // the changes of this hunk
		for n < len(changes) && changes[n].a0-changes[n-1].a1 <= 2*diffContext {
			n++
		}
		writeHunk(&out, a, b, changes[:n])
		changes = changes[n:]
	}
	return out.String(), nil
}

// A lineChange replaces the lines [a0, a1) of the old text by the lines
// [b0, b1) of the new one (0-based); one of the ranges may be empty.
type lineChange struct{ a0, a1, b0, b1 int }

// lineChanges turns the lines marked changed in a and b into changes, in
// order: each run of changed lines of a with the run of b at the same
// place.
func lineChanges(changedA, changedB []bool) []lineChange {
	var out []lineChange
	i, j := 0, 0
	for i < len(changedA) || j < len(changedB) {
		if i < len(changedA) && !changedA[i] && j < len(changedB) && !changedB[j] {
			i, j = i+1, j+1
			continue
		}
		c := lineChange{a0: i, b0: j}
		for i < len(changedA) && changedA[i] {
			i++
		}
		for j < len(changedB) && changedB[j] {
			j++
		}
		c.a1, c.b1 = i, j
		out = append(out, c)
	}
	return out
}

// writeHunk writes the hunk of changes (all within 2*diffContext lines of
// each other) with its context.
func writeHunk(w *strings.Builder, a, b []string, changes []lineChange) {
	first, last := changes[0], changes[len(changes)-1]
	before := min(diffContext, first.a0)
	after := min(diffContext, len(a)-last.a1)
	a0, a1 := first.a0-before, last.a1+after
	b0, b1 := first.b0-before, last.b1+after
	fmt.Fprintf(w, "@@ -%s +%s @@\n", hunkRange(a0, a1), hunkRange(b0, b1))
	at := a0 // the next old line to write
	for _, c := range changes {
		writeLines(w, ' ', a, at, c.a0)
		writeLines(w, '-', a, c.a0, c.a1)
		writeLines(w, '+', b, c.b0, c.b1)
		at = c.a1
	}
	writeLines(w, ' ', a, at, a1)
}

// hunkRange writes the 0-based lines [from, to) as a hunk header does.
func hunkRange(from, to int) string {
	switch to - from {
	case 0:
		return fmt.Sprintf("%d,0", from)
	case 1:
		return fmt.Sprintf("%d", from+1)
	}
	return fmt.Sprintf("%d,%d", from+1, to-from)
}

// writeLines writes lines[from:to], each after mark; a last line without a
// newline is followed by the marker that says so.
func writeLines(w *strings.Builder, mark byte, lines []string, from, to int) {
	for _, l := range lines[from:to] {
		w.WriteByte(mark)
		w.WriteString(l)
		if !strings.HasSuffix(l, "\n") {
			w.WriteString("\n\\ No newline at end of file\n")
		}
	}
}

// splitLines splits text after each newline; the last line may lack one.
// starts holds the offset of each line, and len(text) last.
func splitLines(text string) (lines []string, starts []int) {
	for start := 0; start < len(text); {
		starts = append(starts, start)
		end := strings.IndexByte(text[start:], '\n') + 1
		if end == 0 {
			end = len(text) - start
		}
		lines = append(lines, text[start:start+end])
		start += end
	}
	return lines, append(starts, len(text))
}

// quotePath quotes a path in a patch header the way git does by default
// (core.quotePath: C-style, in double quotes, control characters and every
// byte of a non-ASCII character in octal) when it contains a character git
// would otherwise misread or a terminal act on. A name is a stranger's, and
// the diff is printed into terminals and CI logs: so a "#" that follows a
// "#" is written \043 as well, which git apply and patch read back as "#",
// so that no "##[" or "##vso[" in a name is a CI runner's command.
func quotePath(p string) string {
	needs := strings.TrimSpace(p) != p || strings.Contains(p, "##")
	for i := 0; i < len(p); i++ {
		if c := p[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			needs = true
		}
	}
	if !needs {
		return p
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\t':
			b.WriteString(`\t`)
		case c == '\n':
			b.WriteString(`\n`)
		case c < 0x20 || c >= 0x7f || (c == '#' && i > 0 && p[i-1] == '#'):
			fmt.Fprintf(&b, "\\%03o", c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}
