package lint

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// DefaultPacks are on unless a selection says otherwise, together with
// every rule that protects a consumer in its default mode (DefaultOn).
var DefaultPacks = []string{"mcp", "robust"}

// DefaultSelection is the name that selects the default set in --select
// and friends, so "default,openai-strict" extends it.
const DefaultSelection = "default"

// Config chooses and tunes the rules of a run.
type Config struct {
	// Select replaces the default selection; ExtendSelect adds to it; Ignore
	// removes from it. Each entry is a rule ID, a pack name, or "all".
	Select       []string
	ExtendSelect []string
	Ignore       []string
	// Protocol is the MCP protocol version to check against (default:
	// LatestProtocol).
	Protocol string
	// Severity overrides rules' default severities, by rule ID.
	Severity map[string]Severity
	// Options sets rule options, by rule ID then option name.
	Options map[string]map[string]any
	// UnsafeFixes lets Fix apply unsafe fixes too.
	UnsafeFixes bool
	// FixEdits has Lint give every fix its edits (Fix.Edits, TextEdits), for
	// a report that shows them, such as SARIF. Without it a fix is only
	// named and rated, which is all the other reports say; Fix always
	// builds them.
	FixEdits bool
	// Suppress drops matching findings from Lint's results (and so from
	// what Fix fixes).
	Suppress []Suppression
	// MaxFindings bounds the findings of one source, for a caller that
	// holds them all (a report written at the end, Fix); 0 means no bound.
	// Past it the run ends with a *FindingsError.
	MaxFindings int
}

// Packs lists the pack names used by rules, sorted.
func Packs(all []*Rule) []string {
	seen := map[string]bool{}
	for _, r := range all {
		for _, p := range r.Packs {
			seen[p] = true
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

func matches(r *Rule, sel string) bool {
	return sel == "all" || sel == r.ID || r.InPack(sel) || (sel == DefaultSelection && DefaultOn(r))
}

func checkNames(all []*Rule, names []string, flag string) error {
	for _, n := range names {
		ok := n == "all" || n == DefaultSelection
		for _, r := range all {
			if matches(r, n) {
				ok = true
				break
			}
		}
		if !ok {
			return fmt.Errorf("%s: unknown rule or pack %q%s (packs: %s; `mcplint rules` lists the rules)", flag, n, suggestName(all, n), strings.Join(Packs(all), ", "))
		}
	}
	return nil
}

// Select returns the rules a configuration turns on, in catalogue order.
func Select(all []*Rule, cfg Config) ([]*Rule, error) {
	for _, c := range []struct {
		names []string
		flag  string
	}{{cfg.Select, "select"}, {cfg.ExtendSelect, "extend-select"}, {cfg.Ignore, "ignore"}} {
		if err := checkNames(all, c.names, c.flag); err != nil {
			return nil, err
		}
	}
	for i := range cfg.Suppress {
		s := &cfg.Suppress[i]
		if s.Rule != "" {
			if err := checkNames(all, []string{s.Rule}, "ignore"); err != nil {
				return nil, err
			}
		}
		if err := s.check(); err != nil {
			return nil, err
		}
	}
	sel := cfg.Select
	if len(sel) == 0 {
		sel = []string{DefaultSelection}
	}
	sel = append(append([]string{}, sel...), cfg.ExtendSelect...)
	var out []*Rule
	for _, r := range all {
		on := false
		for _, s := range sel {
			if matches(r, s) {
				on = true
				break
			}
		}
		for _, s := range cfg.Ignore {
			if matches(r, s) {
				on = false
				break
			}
		}
		if on {
			out = append(out, r)
		}
	}
	return out, nil
}
