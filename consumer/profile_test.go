package consumer

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

// TestNameLines holds each profile's name alphabet, read without a
// regular expression, to the pattern its consumer documents.
func TestNameLines(t *testing.T) {
	documented := map[ID]string{
		MCPSpec:          `^[A-Za-z0-9_.-]{1,128}$`,
		Anthropic:        `^[a-zA-Z0-9_-]{1,128}$`,
		OpenAIChat:       `^[a-zA-Z0-9_-]{1,64}$`,
		OpenAIResponses:  `^[a-zA-Z0-9_-]{1,64}$`,
		OpenAIStrict:     `^[a-zA-Z0-9_-]{1,64}$`,
		GeminiParameters: `^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$`,
		GeminiJSONSchema: `^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$`,
		VSCode:           `^[a-zA-Z0-9_-]+$`,
	}
	names := []string{"", "a", "_a", "1a", "a.b", "a:b-c", "a b", "é", "aé", "files.read_file_1", "-x", ".x", "a/b", "a\x00", "A-Z"}
	for _, n := range []int{63, 64, 65, 128, 129} {
		s := strings.Repeat("a", n)
		names = append(names, s, "_"+s[1:], "1"+s[1:])
	}
	for _, p := range Profiles {
		l := p.NameLine()
		pattern, ok := documented[p.Consumer]
		if l == nil {
			if ok {
				t.Errorf("%s documents %s but its profile has no name line", p.Consumer, pattern)
			}
			continue
		}
		if !ok {
			t.Errorf("%s has a name line but the test knows no documented pattern for it", p.Consumer)
			continue
		}
		re := regexp.MustCompile(pattern)
		for _, name := range names {
			if got, want := l.NameAllows(name), re.MatchString(name); got != want {
				t.Errorf("%s: NameAllows(%q) = %v, %s says %v", p.Consumer, name, got, pattern, want)
			}
		}
	}
}

// TestProfilesWellFormed: every consumer of the matrix has a profile, and
// every line says what it demands and cites where that comes from.
func TestProfilesWellFormed(t *testing.T) {
	for _, c := range All {
		if ProfileOf(c.ID) == nil {
			t.Errorf("consumer %s has no profile", c.ID)
		}
	}
	for _, p := range Profiles {
		if ByID(p.Consumer) == nil {
			t.Errorf("profile of unknown consumer %s", p.Consumer)
		}
		if p.Basis == "" {
			t.Errorf("%s: the profile does not say what it is based on", p.Consumer)
		}
		if p.Allowlist != (p.Unlisted != nil) {
			t.Errorf("%s: an allowlist, and only one, says what happens to unlisted keywords", p.Consumer)
		}
		seen := map[string]bool{}
		lines := p.Lines
		if p.Unlisted != nil {
			lines = append([]Line{*p.Unlisted}, lines...)
		}
		for _, l := range lines {
			if seen[l.ID] || l.ID == "" {
				t.Errorf("%s: line ID %q empty or used twice", p.Consumer, l.ID)
			}
			seen[l.ID] = true
			if l.Text == "" || l.Source == "" || l.Kind == 0 {
				t.Errorf("%s/%s: a line needs a kind, a text and a source", p.Consumer, l.ID)
			}
			switch l.Kind {
			case Keywords, Values, Requires:
				if len(l.Keywords) == 0 && l.ID != "unlisted" {
					t.Errorf("%s/%s: a %v line names no keyword", p.Consumer, l.ID, l.Kind)
				}
			case Limit:
				if l.Measure == "" || l.Max <= 0 {
					t.Errorf("%s/%s: a limit needs a measure and a bound", p.Consumer, l.ID)
				}
			case Name:
				if l.Chars == "" {
					t.Errorf("%s/%s: a name line needs an alphabet", p.Consumer, l.ID)
				}
			}
			if l.Kind == Values && l.Match != OneOf && l.Match != Each && l.Match != Kinds && l.Match != Without {
				t.Errorf("%s/%s: unknown match", p.Consumer, l.ID)
			}
		}
	}
}

// TestValueAllowed reads Values lines as the rules and the rewrites do.
func TestValueAllowed(t *testing.T) {
	strict, gemini := ProfileOf(OpenAIStrict), ProfileOf(GeminiParameters)
	for _, c := range []struct {
		p     *Profile
		k     string
		types []string
		v     any
		ok    bool
	}{
		{strict, "format", []string{"string"}, "uri", false},
		{strict, "format", []string{"string"}, "date-time", true},
		{strict, "format", []string{"integer"}, "int64", true}, // the guide lists string formats only
		{strict, "type", nil, []any{"string", "null"}, true},
		{strict, "pattern", []string{"string"}, "^(?!x)", false},
		{gemini, "type", nil, []any{"string", "null"}, false},
		{gemini, "format", []string{"string"}, "email", false},
		{gemini, "format", []string{"integer"}, "int32", true},
		{gemini, "format", nil, "int32", true},
		{gemini, "format", []string{"boolean"}, "int32", false},
		{gemini, "enum", nil, []any{"a", json.Number("1")}, false},
		{gemini, "enum", nil, []any{"a", "b"}, true},
	} {
		if _, ok := c.p.ValueAllowed(c.k, c.types, c.v); ok != c.ok {
			t.Errorf("%s: %s %v on %v: allowed %v, want %v", c.p.Consumer, c.k, c.v, c.types, ok, c.ok)
		}
	}
}
