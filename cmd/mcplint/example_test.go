package main

import (
	"strings"
	"testing"
)

// TestExample keeps the bundled example (the README's first command)
// meaningful: it loads, and each rule it is meant to show fires on it, for
// the rules of the catalogue (rules are still being added).
func TestExample(t *testing.T) {
	const example = "../../testdata/example/manifest.json"
	meant := map[string]int{
		"input-schema-root-object":  2, // {} (schemars unit type), bare root $ref (invopop)
		"integer-accepts-string":    1, // minimum 1
		"required-in-properties":    1,
		"tool-name-valid":           1, // issues/search
		"description-present":       1,
		"output-schema-root-object": 1, // an array, before 2026-07-28
		"ref-resolvable":            1, // https://
	}
	var sel []string
	for _, r := range catalogue() {
		if _, ok := meant[r.ID]; ok {
			sel = append(sel, r.ID)
		}
	}
	got := map[string]int{}
	for _, id := range rulesFound(t, "--select="+strings.Join(sel, ","), "--protocol=2025-11-25", example) {
		got[id]++
	}
	for _, id := range sel {
		if got[id] != meant[id] {
			t.Errorf("%s reports %d findings in the example, want %d", id, got[id], meant[id])
		}
	}
	// 2026-07-28 alone allows an array output schema; the default range
	// includes older versions, which do not.
	for _, c := range []struct {
		protocol string
		want     bool
	}{{"--protocol=2026-07-28", false}, {"--fail-on=never", true}} {
		found := false
		for _, id := range rulesFound(t, "--select="+strings.Join(sel, ","), c.protocol, example) {
			found = found || id == "output-schema-root-object"
		}
		if found != c.want {
			t.Errorf("%s: output-schema-root-object fires: %v, want %v", c.protocol, found, c.want)
		}
	}
}
