package main

import "testing"

func TestShownURLAndShellWord(t *testing.T) {
	for in, want := range map[string]string{
		"https://example.com/mcp":                    "https://example.com/mcp",
		"https://u:pw@example.com/mcp?key=abc&x=1":   "https://***@example.com/mcp?key=***&x=***",
		"http://127.0.0.1:3000/sse?token=a%20b#frag": "http://127.0.0.1:3000/sse?token=***",
	} {
		if got := shownURL(in); got != want {
			t.Errorf("shownURL(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"npx": "npx", "-y": "-y", "@scope/pkg@1.0": "@scope/pkg@1.0", "/a b/c": "'/a b/c'",
		"it's": `'it'\''s'`, "$HOME": "'$HOME'", "": "''",
	} {
		if got := shellWord(in); got != want {
			t.Errorf("shellWord(%q) = %q, want %q", in, got, want)
		}
	}
}
