package rules

import (
	"regexp"
	"testing"
)

// TestNameChecks holds the hand-written name checks to the patterns the
// providers document.
func TestNameChecks(t *testing.T) {
	openai := regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
	gemini := regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$`)
	names := []string{"", "a", "_a", "1a", "a.b", "a:b-c", "a b", "é", "aé", "files.read_file_1", "-x", ".x",
		string(make([]byte, 64)), "a\x00"}
	for _, n := range []int{63, 64, 65} {
		b := make([]byte, n)
		for i := range b {
			b[i] = 'a'
		}
		names = append(names, string(b), "_"+string(b[1:]))
	}
	for _, name := range names {
		if got, want := openaiName(name), openai.MatchString(name); got != want {
			t.Errorf("openaiName(%q) = %v, the pattern says %v", name, got, want)
		}
		if got, want := geminiValidName(name), gemini.MatchString(name); got != want {
			t.Errorf("geminiValidName(%q) = %v, the pattern says %v", name, got, want)
		}
	}
}
