package rules

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpfit/mcplint/consumer"
	"github.com/mcpfit/mcplint/internal/testenv"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
)

// TestFixProducesNoRefusal: for every consumer's profile, fixing with the
// rules that protect it (unsafe fixes included, as `mcplint fix --select
// ... --unsafe-fixes` does) never produces what that consumer refuses: no
// finding of those rules naming it is left that was not there before the
// fix, over every case folder and the real-world corpus. (`fix --strict`
// used to add "items": {}, which strict mode then refused as a schema
// without a type.)
func TestFixProducesNoRefusal(t *testing.T) {
	var inputs []string
	for _, pattern := range []string{"testdata/cases/*/*/input.*", filepath.Join(testenv.RepoRoot(t), "testdata", "realworld", "*", "tools.json")} {
		found, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, found...)
	}
	if len(inputs) < 200 {
		t.Fatalf("%d inputs, want the case folders and the corpus", len(inputs))
	}
	manifests := make([]*manifest.Manifest, len(inputs))
	for i, in := range inputs {
		src, err := os.ReadFile(in)
		if err != nil {
			t.Fatal(err)
		}
		if manifests[i], err = manifest.Load(filepath.Base(in), src); err != nil {
			t.Fatalf("%s: %v", in, err)
		}
	}
	for _, c := range consumer.All {
		var sel []string
		for _, r := range All {
			if slices.ContainsFunc(r.Consumers, func(f consumer.Refusal) bool { return f.Consumer == c.ID }) {
				sel = append(sel, r.ID)
			}
		}
		l, err := lint.New(All, lint.Config{Select: sel, UnsafeFixes: true})
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range manifests {
			before, err := l.Lint(m)
			if err != nil {
				t.Fatalf("%s: %v", inputs[i], err)
			}
			res, err := l.Fix(m)
			if err != nil {
				t.Fatalf("%s: %v", inputs[i], err)
			}
			// A finding the fix moved keeps its message; one message more
			// than before is a finding the fix produced.
			messages := map[string]int{}
			for _, b := range before {
				messages[fmt.Sprint(b.ToolIndex, b.Rule, b.Message)]++
			}
			for _, d := range res.Remaining {
				if !refusesFor(d, c.ID) || slices.ContainsFunc(before, func(b lint.Diagnostic) bool { return sameFinding(b, d) || covers(b, d, c.ID) }) {
					continue
				}
				if k := fmt.Sprint(d.ToolIndex, d.Rule, d.Message); messages[k] > 0 {
					messages[k]--
					continue
				}
				t.Errorf("%s: fixing for %s produced what it refuses: %s %s: %s", inputs[i], c.ID, d.Rule, d.Pointer, d.Message)
			}
		}
	}
}

// sameFinding reports whether finding d, after a fix, is finding b from
// before it: same tool and rule, at the same place (a fix may change a
// value the message quotes), the place of a member of b's value counting
// as b's, or at a place with the same last two names (a fix may move what
// it reports: an inlined definition, a oneOf rewritten as anyOf above it).
func sameFinding(b, d lint.Diagnostic) bool {
	if b.ToolIndex != d.ToolIndex || b.Rule != d.Rule {
		return false
	}
	return d.RelPointer == b.RelPointer || strings.HasPrefix(d.RelPointer, b.RelPointer+"/") ||
		lastTokens(b.RelPointer) == lastTokens(d.RelPointer)
}

// covers reports whether finding b, before the fix, had consumer id refuse
// the whole input schema that holds d: a fix that mends the root (its
// type, say) reveals what the rules that give way to the root's finding
// did not report, and produces nothing.
func covers(b, d lint.Diagnostic, id consumer.ID) bool {
	return b.ToolIndex == d.ToolIndex && refusesFor(b, id) && b.RelPointer == "/inputSchema" && strings.HasPrefix(d.RelPointer, "/inputSchema/")
}

// lastTokens are the last two tokens of a pointer: where a finding moved
// by a fix (a oneOf rewritten as anyOf above it) keeps its own name.
func lastTokens(ptr string) string {
	i := strings.LastIndexByte(ptr, '/')
	if i <= 0 {
		return ptr
	}
	if j := strings.LastIndexByte(ptr[:i], '/'); j >= 0 {
		return ptr[j:]
	}
	return ptr
}

func refusesFor(d lint.Diagnostic, id consumer.ID) bool {
	return slices.ContainsFunc(d.Consumers, func(f consumer.Refusal) bool { return f.Consumer == id && f.Action().Loses() })
}
