package pointer

import (
	"slices"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	for _, toks := range [][]string{
		nil,
		{""},
		{"properties", "a/b", "~x", "~1"},
		{"$defs", "", "items", "0"},
	} {
		p := Join(toks)
		if got := Split(p); !slices.Equal(got, toks) && !(len(got) == 0 && len(toks) == 0) {
			t.Errorf("Split(Join(%q)) = %q (pointer %q)", toks, got, p)
		}
	}
	if got := Join([]string{"a/b", "c~d"}); got != "/a~1b/c~0d" {
		t.Errorf("Join = %q", got)
	}
	// "~01" is "~1" escaped, not "/": the order of replacements matters.
	if got := Unescape("~01"); got != "~1" {
		t.Errorf("Unescape(~01) = %q", got)
	}
}

func TestParentWithin(t *testing.T) {
	cases := []struct{ p, parent, last string }{
		{"", "", ""},
		{"/a", "", "a"},
		{"/a/b~1c", "/a", "b/c"},
	}
	for _, c := range cases {
		if parent, last := Parent(c.p); parent != c.parent || last != c.last {
			t.Errorf("Parent(%q) = %q, %q; want %q, %q", c.p, parent, last, c.parent, c.last)
		}
	}
	for _, c := range []struct {
		p, anc string
		want   bool
	}{
		{"/a/b", "/a", true}, {"/a", "/a", true}, {"/ab", "/a", false}, {"/a", "", true}, {"", "/a", false},
	} {
		if got := Within(c.p, c.anc); got != c.want {
			t.Errorf("Within(%q, %q) = %v", c.p, c.anc, got)
		}
	}
}
