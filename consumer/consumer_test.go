package consumer

import (
	"slices"
	"testing"
)

func TestMatrixWellFormed(t *testing.T) {
	seen := map[ID]bool{}
	for _, c := range All {
		if seen[c.ID] {
			t.Errorf("consumer %s listed twice", c.ID)
		}
		seen[c.ID] = true
		if c.Name == "" || c.Mode == "" || c.Users == "" || c.Source == "" {
			t.Errorf("consumer %s lacks a name, mode, users or source", c.ID)
		}
	}
	for _, c := range All {
		for _, u := range c.Uses {
			if ByID(u) == nil {
				t.Errorf("%s uses unknown consumer %s", c.ID, u)
			}
		}
	}
	if ByID("nobody") != nil {
		t.Error("ByID finds an unknown consumer")
	}
}

// TestReached: a refusal reaches the clients built on the refusing
// consumer, and only them.
func TestReached(t *testing.T) {
	got := Reached(TSSDK)
	slices.Sort(got)
	want := []ID{ClaudeCode, Cursor, TSSDK}
	if !slices.Equal(got, want) {
		t.Errorf("Reached(ts-sdk) = %v, want %v", got, want)
	}
	got = Reached(OpenAIChat)
	if !slices.Equal(got, []ID{OpenAIChat}) {
		t.Errorf("Reached(openai-chat) = %v", got)
	}
}

func TestNames(t *testing.T) {
	rs := []Refusal{{Consumer: Anthropic}, {Consumer: VSCode, Mangles: true}, {Consumer: Anthropic}, {Consumer: "nobody"}}
	if got := Names(rs, false); got != "Anthropic API" {
		t.Errorf("refusers %q", got)
	}
	if got := Names(rs, true); got != "VS Code" {
		t.Errorf("manglers %q", got)
	}
}
