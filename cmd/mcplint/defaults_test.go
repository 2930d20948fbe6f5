package main

import (
	"strings"
	"testing"

	"github.com/mcpfit/mcplint/lint"
)

// TestHelpNamesTheDefaults: every command that selects rules says in its
// help what runs by default, as the catalogue has it (rules on by default
// through a client's default mode included, such as openai-array-items'
// pack), whatever the help's line wrapping.
func TestHelpNamesTheDefaults(t *testing.T) {
	want := strings.Join(strings.Fields(lint.DefaultDescription(catalogue())), " ")
	if !strings.Contains(want, "openai") {
		t.Fatalf("the default description %q omits the openai pack, which runs by default", want)
	}
	for _, cmd := range []string{"lint", "fix", "check"} {
		r := mcplint(t, runOpts{}, cmd, "--help")
		r.want(t, 0)
		if got := strings.Join(strings.Fields(r.stdout), " "); !strings.Contains(got, want) {
			t.Errorf("mcplint %s --help does not say the default selection is %q:\n%s", cmd, want, r.stdout)
		}
	}
}
