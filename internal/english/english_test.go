package english

import "testing"

func TestPlural(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{0, "fixes"}, {1, "fix"}, {2, "fixes"}} {
		if got := Plural(c.n, "fix", "fixes"); got != c.want {
			t.Errorf("Plural(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}

func TestA(t *testing.T) {
	for word, want := range map[string]string{
		"array": "an array", "object": "an object", "integer": "an integer", "ANSI escape": "an ANSI escape",
		"string": "a string", "number": "a number", "zero-width space": "a zero-width space",
	} {
		if got := A(word); got != want {
			t.Errorf("A(%q) = %q, want %q", word, got, want)
		}
	}
}

func TestJoin(t *testing.T) {
	for _, c := range []struct {
		words []string
		want  string
	}{{nil, ""}, {[]string{"a"}, "a"}, {[]string{"a", "b"}, "a and b"}, {[]string{"a", "b", "c"}, "a, b and c"}} {
		if got := Join(c.words); got != c.want {
			t.Errorf("Join(%q) = %q, want %q", c.words, got, c.want)
		}
	}
}

func TestCount(t *testing.T) {
	for _, c := range []struct {
		n          int
		noun, want string
	}{
		{1, "server", "1 server"}, {0, "server", "0 servers"}, {2, "warning", "2 warnings"},
		{1, "fix", "1 fix"}, {3, "fix", "3 fixes"}, {2, "match", "2 matches"}, {1, "resource template", "1 resource template"},
	} {
		if got := Count(c.n, c.noun); got != c.want {
			t.Errorf("Count(%d, %q) = %q, want %q", c.n, c.noun, got, c.want)
		}
	}
}
