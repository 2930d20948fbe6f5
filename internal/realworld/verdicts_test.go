package realworld

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpfit/mcplint/consumer"
	"github.com/mcpfit/mcplint/internal/linttest"
	"github.com/mcpfit/mcplint/internal/testenv"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/rules"
)

// corpus is every case of testdata/realworld, loaded.
func corpus(t *testing.T) []Case {
	t.Helper()
	cases, err := Corpus(filepath.Join(testenv.RepoRoot(t), "testdata", "realworld"))
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < 40 {
		t.Fatalf("%d corpus cases, want at least 40", len(cases))
	}
	return cases
}

// knownMisses are refusals that mcplint does not report, each with the
// reason. The test fails when an entry no longer misses, so the list only
// shrinks.
var knownMisses = map[string]string{
	"thread-gemini-cli-13326-defs-ref/gemini-json-schema": "Gemini CLI 0.15 fails to resolve valid \"$defs\" references " +
		"(google-gemini/gemini-cli#13142, #13326, open): a client bug that refuses every nested Pydantic model, so " +
		"reporting it by default would flag most Python servers; the gemini pack's gemini-ref inlines the references",
}

// named lists the consumers that the errors and warnings of a run name as
// refusing, with every consumer their refusal reaches (consumer.Reached).
func named(ds []lint.Diagnostic) []consumer.ID {
	var ids []consumer.ID
	for _, d := range ds {
		if d.Severity < lint.Warning {
			continue
		}
		for _, r := range d.Consumers {
			if !r.Mangles {
				ids = append(ids, r.Consumer)
			}
		}
	}
	return consumer.Reached(ids...)
}

func lintCase(t *testing.T, m *manifest.Manifest, cfg lint.Config) []lint.Diagnostic {
	t.Helper()
	return linttest.Lint(t, rules.All, cfg, m)
}

// TestDefaultVerdicts: without flags, mcplint reports every case that a
// consumer refuses in the mode clients use by default, and its findings
// name that consumer (or one it is built on).
func TestDefaultVerdicts(t *testing.T) {
	stale := map[string]bool{}
	for k := range knownMisses {
		stale[k] = true
	}
	for _, cc := range corpus(t) {
		got := named(lintCase(t, cc.Manifest, lint.Config{}))
		for _, c := range consumer.All {
			if !c.Default || cc.File.Verdicts[string(c.ID)] != "refuse" {
				continue
			}
			key := cc.Name + "/" + string(c.ID)
			if slices.Contains(got, c.ID) {
				continue
			}
			delete(stale, key)
			if _, ok := knownMisses[key]; !ok {
				t.Errorf("%s: %s refuses it (%s), but the default run names %v", cc.Name, c.Name, firstLine(cc.File.Basis, string(c.ID)), got)
			}
		}
	}
	for key := range stale {
		t.Errorf("knownMisses entry %s names no case that misses (reported now? remove it)", key)
	}
}

// TestOptInVerdicts: the rules that protect a consumer of an opt-in mode
// (OpenAI strict, Gemini parameters) report every case it refuses.
func TestOptInVerdicts(t *testing.T) {
	cases := corpus(t)
	for _, c := range consumer.All {
		if c.Default {
			continue
		}
		var sel []string
		for _, r := range rules.All {
			if slices.ContainsFunc(r.Consumers, func(f consumer.Refusal) bool { return f.Consumer == c.ID }) {
				sel = append(sel, r.ID)
			}
		}
		if len(sel) == 0 {
			t.Errorf("no rule protects %s", c.ID)
			continue
		}
		for _, cc := range cases {
			if cc.File.Verdicts[string(c.ID)] != "refuse" {
				continue
			}
			got := named(lintCase(t, cc.Manifest, lint.Config{ExtendSelect: sel}))
			if !slices.Contains(got, c.ID) {
				t.Errorf("%s: %s refuses it (%s), but its rules report nothing naming it", cc.Name, c.Name, firstLine(cc.File.Basis, string(c.ID)))
			}
		}
	}
}

// TestQuietOnCleanServers: on the popular servers that every consumer of a
// default mode accepts, the default run of lint and of check (which adds
// the security pack) gives no error and at most one warning per twenty
// tools.
func TestQuietOnCleanServers(t *testing.T) {
	tools, warnings, servers := 0, 0, 0
	byRule := map[string]int{}
	for _, cc := range corpus(t) {
		if cc.File.Kind != "server" || !acceptedByDefault(cc.File) {
			continue
		}
		servers++
		tools += len(cc.Manifest.Tools)
		// mcplint check adds the security pack to the default set.
		for _, d := range lintCase(t, cc.Manifest, lint.Config{ExtendSelect: []string{"security"}}) {
			switch d.Severity {
			case lint.Error:
				t.Errorf("%s: error on a server every client accepts: %s %s: %s", cc.Name, d.Rule, d.Pointer, d.Message)
			case lint.Warning:
				warnings++
				byRule[d.Rule]++
			}
		}
	}
	if servers < 10 {
		t.Fatalf("%d clean popular servers in the corpus, want at least 10", servers)
	}
	if rate := float64(warnings) / float64(tools); rate > 0.05 {
		t.Errorf("%d warnings on %d tools of %d clean servers (%.3f a tool, want at most 0.05): %v", warnings, tools, servers, rate, byRule)
	}
	t.Logf("%d clean servers, %d tools, %d warnings", servers, tools, warnings)
}

func acceptedByDefault(c CaseFile) bool {
	for _, k := range consumer.All {
		if k.Default && c.Verdicts[string(k.ID)] == "refuse" {
			return false
		}
	}
	return true
}

// firstLine returns the basis line of a consumer, for a message.
func firstLine(basis, id string) string {
	for _, l := range strings.Split(basis, "\n") {
		if rest, ok := strings.CutPrefix(l, id+": "); ok {
			return rest
		}
	}
	return "no basis line"
}
