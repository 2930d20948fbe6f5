package pin

import (
	"bytes"
	"fmt"
	"maps"
	"slices"

	"github.com/mcpfit/mcplint/breaking"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
)

// Change is one difference between a locked server and what it publishes
// now.
type Change struct {
	// Kind is "tool", "prompt", "resource", "resource template" or
	// "instructions".
	Kind string `json:"kind"`
	// Key identifies the entry (its name, URI or URI template; "" for the
	// instructions).
	Key string `json:"key"`
	// What is "added", "removed" or "changed".
	What string `json:"change"`
	// Rule and Severity classify a tool's change as `mcplint breaking`
	// does (package breaking); "" and 0 for the other kinds and for a
	// change breaking has no rule for.
	Rule     string        `json:"rule,omitempty"`
	Severity lint.Severity `json:"severity,omitempty"`
	Message  string        `json:"message"`
}

// Compare lists what changed from locked to now, two pins of one server;
// current is the manifest now was made of, whose tools a tool's change is
// classified against. Changes come tools first, each kind sorted by key.
func Compare(locked, now *Server, current *manifest.Manifest) ([]Change, error) {
	changes, err := toolChanges(locked, now, current)
	if err != nil {
		return nil, err
	}
	for _, kind := range []struct {
		name     string
		old, new map[string]Pin
	}{
		{"prompt", locked.Prompts, now.Prompts},
		{"resource", locked.Resources, now.Resources},
		{"resource template", locked.ResourceTemplates, now.ResourceTemplates},
	} {
		changes = append(changes, plainChanges(kind.name, kind.old, kind.new)...)
	}
	switch {
	case locked.Instructions == now.Instructions:
	case locked.Instructions == "":
		changes = append(changes, Change{Kind: "instructions", What: "added", Message: "the server now gives instructions, which it did not when locked"})
	case now.Instructions == "":
		changes = append(changes, Change{Kind: "instructions", What: "removed", Message: "the server no longer gives the instructions it gave when locked"})
	default:
		changes = append(changes, Change{Kind: "instructions", What: "changed", Message: "the server's instructions changed since they were locked"})
	}
	return changes, nil
}

// plainChanges compares entries by digest alone.
func plainChanges(kind string, old, new map[string]Pin) []Change {
	var out []Change
	for _, k := range slices.Sorted(maps.Keys(old)) {
		p, ok := new[k]
		switch {
		case !ok:
			out = append(out, Change{Kind: kind, Key: k, What: "removed", Message: fmt.Sprintf("%s %q was locked and is no longer published", kind, k)})
		case p.Digest != old[k].Digest:
			out = append(out, Change{Kind: kind, Key: k, What: "changed", Message: fmt.Sprintf("%s %q changed since it was locked", kind, k)})
		}
	}
	for _, k := range slices.Sorted(maps.Keys(new)) {
		if _, ok := old[k]; !ok {
			out = append(out, Change{Kind: kind, Key: k, What: "added", Message: fmt.Sprintf("%s %q is published but was not locked", kind, k)})
		}
	}
	return out
}

// toolChanges classifies the tools' changes with package breaking, the
// locked definitions standing for the old list. A tool whose digest
// changed in a way breaking has no rule for (its annotations' hints aside,
// _meta, icons, execution) is reported as plainly changed.
func toolChanges(locked, now *Server, current *manifest.Manifest) ([]Change, error) {
	plain := plainChanges("tool", locked.Tools, now.Tools)
	if len(plain) == 0 {
		return nil, nil
	}
	var src bytes.Buffer
	src.WriteString(`{"tools":[`)
	for i, k := range slices.Sorted(maps.Keys(locked.Tools)) {
		if i > 0 {
			src.WriteByte(',')
		}
		def := locked.Tools[k].Definition
		if len(def) == 0 {
			def = []byte(`{}`)
		}
		src.Write(def)
	}
	src.WriteString("]}")
	old, err := manifest.Load(FileName, src.Bytes())
	if err != nil {
		return nil, fmt.Errorf("the locked tool definitions do not load: %v", err)
	}
	// Only the tool pages of current: breaking compares tools.
	rep, err := breaking.Compare(old, current, lint.Config{})
	if err != nil {
		return nil, err
	}
	var out []Change
	classified := map[string]bool{}
	for _, d := range rep.All() {
		what := "changed"
		switch d.Rule {
		case "tool-added":
			what = "added"
		case "tool-removed":
			what = "removed"
		}
		classified[d.Tool] = true
		out = append(out, Change{Kind: "tool", Key: d.Tool, What: what, Rule: d.Rule, Severity: d.Severity, Message: d.Message})
	}
	for _, c := range plain {
		if classified[c.Key] {
			continue
		}
		if c.What == "changed" {
			c.Message += " (in a member no breaking rule compares: annotations, _meta, icons, …)"
		}
		out = append(out, c)
	}
	slices.SortStableFunc(out, func(a, b Change) int {
		switch {
		case a.Key < b.Key:
			return -1
		case a.Key > b.Key:
			return 1
		}
		return 0
	})
	return out, nil
}
