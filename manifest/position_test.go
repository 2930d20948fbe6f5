package manifest

import (
	"fmt"
	"strings"
	"testing"
)

// TestPositionAndLine checks every offset and line of sources with many
// lines (more than the line index marks apart), CRLF and an unfinished
// last line, against a count from the start.
func TestPositionAndLine(t *testing.T) {
	var b strings.Builder
	for i := range 300 {
		b.WriteString(strings.Repeat("x", i%7))
		if i%5 == 0 {
			b.WriteByte('\r')
		}
		b.WriteByte('\n')
	}
	b.WriteString("last")
	// Lines longer than Position looks back over, several between marks.
	var long strings.Builder
	for i := range 150 {
		long.WriteString(strings.Repeat("y", (i*37)%700))
		long.WriteByte('\n')
	}
	long.WriteString(strings.Repeat("z", 1000))
	for _, src := range []string{"", "\n", "a", "a\nb", b.String(), long.String(), strings.Repeat("w", 5000)} {
		m := &Manifest{Src: []byte(src)}
		line, col := 1, 1
		for off := 0; off <= len(src); off++ {
			if got := m.Position(off); got.Line != line || got.Column != col {
				t.Fatalf("%d lines: Position(%d) = %d:%d, want %d:%d", strings.Count(src, "\n"), off, got.Line, got.Column, line, col)
			}
			if off < len(src) && src[off] == '\n' {
				line, col = line+1, 1
			} else {
				col++
			}
		}
		lines := strings.Split(src, "\n")
		for n := 0; n <= len(lines)+1; n++ {
			want := ""
			if n >= 1 && n <= len(lines) {
				want = strings.TrimRight(lines[n-1], "\r")
			}
			if got := m.Line(n); got != want {
				t.Fatalf("Line(%d) = %q, want %q", n, got, want)
			}
		}
	}
}

// TestPositionLongLines checks positions in sources larger than the span
// marks are apart, with lines longer than that, against a count from the
// start, at a sample of offsets and around every mark.
func TestPositionLongLines(t *testing.T) {
	var b strings.Builder
	b.WriteString(strings.Repeat("a", 3*spanBytes+17)) // one long first line
	b.WriteString("\n\n")
	for i := range 200 {
		b.WriteString(strings.Repeat("b", (i*911)%5000))
		b.WriteString("\r\n")
	}
	b.WriteString(strings.Repeat("c", 2*spanBytes)) // a long unfinished last line
	for _, src := range []string{b.String(), strings.Repeat("d", 5*spanBytes)} {
		m := &Manifest{Src: []byte(src)}
		lines, cols := make([]int, len(src)+1), make([]int, len(src)+1)
		line, col := 1, 1
		for off := 0; off <= len(src); off++ {
			lines[off], cols[off] = line, col
			if off < len(src) && src[off] == '\n' {
				line, col = line+1, 1
			} else {
				col++
			}
		}
		check := func(off int) {
			if off < 0 || off > len(src) {
				return
			}
			if got := m.Position(off); got.Line != lines[off] || got.Column != cols[off] {
				t.Fatalf("Position(%d) = %d:%d, want %d:%d", off, got.Line, got.Column, lines[off], cols[off])
			}
		}
		for off := 0; off <= len(src); off += 97 {
			check(off)
		}
		for mark := spanBytes; mark <= len(src); mark += spanBytes {
			for d := -2; d <= 2; d++ {
				check(mark + d)
			}
		}
		check(len(src))
	}
}

// TestPlacesManyAtOneLevel places many pointers under one member at once
// (past the few the trie keeps in a list) and each alone: the same places.
func TestPlacesManyAtOneLevel(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"tools":[{"name":"t","inputSchema":{"type":"object","properties":{`)
	for i := range 40 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"p%d":{"type":"string","description":"d\"%d"}`, i, i)
	}
	b.WriteString(`,"a\/b":{}}}}]}`)
	m, err := Load("m.json", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	tool := m.Tools[0]
	var ptrs []string
	for i := range 45 { // five that do not exist
		ptrs = append(ptrs, fmt.Sprintf("/inputSchema/properties/p%d/description", i), fmt.Sprintf("/inputSchema/properties/p%d", i))
	}
	ptrs = append(ptrs, "/inputSchema/properties/a~1b", "/inputSchema/properties/p3/description", "/name")
	all := tool.Places(ptrs)
	for i, p := range ptrs {
		if one := tool.Places([]string{p})[0]; one != all[i] {
			t.Errorf("%s: alone %+v, among many %+v", p, one, all[i])
		}
	}
	if !all[0].Found || all[len(ptrs)-3].Found != true {
		t.Errorf("places not found: %+v, %+v", all[0], all[len(ptrs)-3])
	}
}
