package elide

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestMiddle(t *testing.T) {
	if got := Middle("short", 10); got != "short" {
		t.Errorf("Middle(short) = %q, want it unchanged", got)
	}
	exact := strings.Repeat("x", 10)
	if got := Middle(exact, 10); got != exact {
		t.Errorf("a value of exactly the bound changed: %q", got)
	}
	long := "start" + strings.Repeat("m", 1000) + "end"
	got := Middle(long, 20)
	want := "startmmmmm…[988 bytes left out]…mmmmmmmend"
	if got != want {
		t.Errorf("Middle = %q, want %q", got, want)
	}
	// A cut never splits a rune.
	wide := strings.Repeat("é", 500)
	if got := Middle(wide, 21); !utf8.ValidString(got) || len(got) > 21+40 {
		t.Errorf("Middle of two-byte runes = %q", got)
	}
}

func TestKey(t *testing.T) {
	if got := Key("/a/b", 1024); got != "/a/b" {
		t.Errorf("Key of a short value = %q, want it unchanged", got)
	}
	a := strings.Repeat("k", 100000) + "a"
	b := strings.Repeat("k", 100000) + "b"
	ka, kb := Key(a, 1024), Key(b, 1024)
	if ka == kb {
		t.Error("two long values that differ only at the end have the same key")
	}
	if ka != Key(a, 1024) {
		t.Error("the key of a value changes from one call to the next")
	}
	if len(ka) > 200 || !strings.HasPrefix(ka, strings.Repeat("k", 64)+"…sha256:") {
		t.Errorf("Key = %q (%d bytes), want the start and a digest", ka, len(ka))
	}
}

// TestHeadTail: the ends are cut on whole characters, of strings and of
// bytes alike, and a short value is whole.
func TestHeadTail(t *testing.T) {
	s := "aé" + strings.Repeat("x", 10) + "éb" // é is two bytes
	for _, c := range []struct {
		n          int
		head, tail string
	}{
		{0, "", ""},
		{2, "a", "b"},
		{3, "aé", "éb"},
		{100, s, s},
	} {
		if got := Head(s, c.n); got != c.head {
			t.Errorf("Head(%d) = %q, want %q", c.n, got, c.head)
		}
		if got := Tail(s, c.n); got != c.tail {
			t.Errorf("Tail(%d) = %q, want %q", c.n, got, c.tail)
		}
		if got := Head([]byte(s), c.n); string(got) != c.head {
			t.Errorf("Head of bytes (%d) = %q, want %q", c.n, got, c.head)
		}
	}
}
