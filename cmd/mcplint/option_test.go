package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

func TestOption(t *testing.T) {
	fixed := func(args ...string) string {
		t.Helper()
		r := mcplint(t, runOpts{}, append([]string{"fix", "--select=test-schema-type", "testdata/fixable.json"}, args...)...)
		r.want(t, 0)
		return r.stdout
	}
	if out := fixed(); !strings.Contains(out, `"type": "object"`) {
		t.Errorf("default option:\n%s", out)
	}
	for _, opt := range []string{"test-schema-type.type=record", `test-schema-type.type="record"`} {
		if out := fixed("--option", opt); !strings.Contains(out, `"type": "record"`) {
			t.Errorf("--option %s:\n%s", opt, out)
		}
	}
	// A string option takes a value that parses as another JSON type as
	// the string it spells.
	if out := fixed("--option", "test-schema-type.type=12"); !strings.Contains(out, `"type": "12"`) {
		t.Errorf("--option type=12:\n%s", out)
	}
	src, _ := os.ReadFile("testdata/fixable.json")
	if out := fixed("--option", "test-schema-type.enabled=false"); !bytes.Equal([]byte(out), src) {
		t.Errorf("enabled=false still fixes:\n%s", out)
	}
	for _, c := range []struct{ opt, want string }{
		{"test-schema-type.enabled=maybe", `takes a value like its default true, not "maybe"`},
		{"test-schema-type.colour=red", `rule test-schema-type has no option "colour" (options: enabled, type)`},
		{"tool-name-valid.max=3", "rule tool-name-valid has no options"},
		{"nope.x=1", `unknown rule "nope"`},
		{"test-schema-type=1", "not RULE.NAME=VALUE; write"},
		{"test-schema-type.type", "not RULE.NAME=VALUE; write"},
		// A value of the right type that the rule cannot use, checked
		// when the linter is built, whether the rule is selected or not.
		{"integer-accepts-string.form=bogus", `"bogus" is no form; want "auto", "oneOf" or "anyOf"`},
		{"schema-complexity.maxDepth=-1", "-1 is below zero"},
	} {
		r := mcplint(t, runOpts{}, "lint", "--select=test", "--option", c.opt, "testdata/fixable.json")
		r.want(t, 2)
		if !strings.Contains(r.stderr, c.want) {
			t.Errorf("--option %s: stderr %q lacks %q", c.opt, r.stderr, c.want)
		}
	}
}
