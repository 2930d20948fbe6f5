package jsonscan

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestStringEnd(t *testing.T) {
	for _, c := range []struct {
		src     string
		end     int
		escaped bool
	}{
		{`"" x`, 2, false},
		{`"abc":1`, 5, false},
		{`"a\"b" "`, 6, true},
		{`"a\\" "b"`, 5, true},
		{`"\\\"" `, 6, true},
		{`"\u0022"`, 8, true},
		{`"open`, -1, false},
		{`"open\"`, -1, true},
	} {
		end, escaped := StringEnd([]byte(c.src), 0)
		if end != c.end || escaped != c.escaped {
			t.Errorf("StringEnd(%s) = %d, %v; want %d, %v", c.src, end, escaped, c.end, c.escaped)
		}
	}
}

func TestValueEnd(t *testing.T) {
	for _, c := range []struct {
		src string
		at  int
		end int
	}{
		{`"a" `, 0, 3},
		{`{"a":[1,{"b":"}"}]} x`, 0, 19},
		{`[[[[[]]]]],`, 0, 10},
		{`{"a":"\"}"}`, 0, 11},
		{`12.5e3,`, 0, 6},
		{`true}`, 0, 4},
		{`null`, 0, 4},
		{`x: 1`, 3, 4},
		// What no value is, or ends inside b.
		{``, 0, -1},
		{`{"a":1`, 0, -1},
		{`[1,"]`, 0, -1},
		{`,`, 0, -1},
		{`}`, 0, -1},
		{`tr"ue`, 0, -1},
		{`1:`, 0, -1},
		{`1{`, 0, -1},
		{`"a`, 0, -1},
		{`1`, 5, -1},
		// A bracket that closes one of the other kind.
		{`{"a":[}]`, 0, -1},
		{`[{]}`, 0, -1},
		{`{]`, 0, -1},
	} {
		if end := ValueEnd([]byte(c.src), c.at); end != c.end {
			t.Errorf("ValueEnd(%s, %d) = %d, want %d", c.src, c.at, end, c.end)
		}
	}
}

// TestValueEndDeep: nesting is counted however deep.
func TestValueEndDeep(t *testing.T) {
	const depth = 100000
	b := []byte(strings.Repeat("[{\"a\":", depth/2) + strings.Repeat("}]", depth/2))
	if end := ValueEnd(b, 0); end != len(b) {
		t.Errorf("end %d, want %d", end, len(b))
	}
	// One bracket of the wrong kind, deep inside, is found.
	b[len(b)-depth/2] = ']'
	if end := ValueEnd(b, 0); end != -1 {
		t.Errorf("a mismatched bracket %d levels deep: end %d, want -1", depth/2, end)
	}
}

func TestSkipSpace(t *testing.T) {
	for _, c := range []struct {
		src   string
		at, i int
	}{{" \t\r\n x", 0, 5}, {"x ", 0, 0}, {"x  ", 1, 3}, {"", 0, 0}, {"\u00a0", 0, 0}} {
		if i := SkipSpace([]byte(c.src), c.at); i != c.i {
			t.Errorf("SkipSpace(%q, %d) = %d, want %d", c.src, c.at, i, c.i)
		}
	}
}

// FuzzValueEnd: on any bytes ValueEnd stays inside them, and on valid
// JSON it ends the value where the text ends (but for white space).
func FuzzValueEnd(f *testing.F) {
	for _, s := range []string{`{"a":[1,"\""]}`, ` 1 `, `"x"`, `[{}]`, `{"a":1`, `tr"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		start := SkipSpace(b, 0)
		end := ValueEnd(b, start)
		if end > len(b) || end < -1 || end == start {
			t.Fatalf("ValueEnd(%q) = %d", b, end)
		}
		if json.Valid(b) && end != len(bytes.TrimRight(b, " \t\r\n")) {
			t.Fatalf("ValueEnd(%q) = %d, the value ends at %d", b, end, len(bytes.TrimRight(b, " \t\r\n")))
		}
	})
}
