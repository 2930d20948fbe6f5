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
	// A finding whose message and pointer are over FindingBytes counts
	// as one per FindingBytes of them, so that the bound holds in bytes
	// too. Past it the run ends with a *FindingsError.
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

// NameError is a name in a selection that is no rule ID or pack name.
type NameError struct {
	// Key is the setting that holds it: "select", "extend-select" or
	// "ignore" (Config.Ignore, or Config.Suppress when Suppression is set).
	Key string
	// Index is its place in the setting's list.
	Index       int
	Suppression bool
	Name        string
	// Hint says what to do: the closest name, or where the names are.
	Hint string
}

func (e *NameError) Error() string {
	return fmt.Sprintf("%s: %s", e.Key, e.Problem())
}

// Problem is the error without the setting's name, for a caller that
// names the setting its own way (a flag, a place in a file).
func (e *NameError) Problem() string {
	return fmt.Sprintf("unknown rule or pack %q; %s", e.Name, e.Hint)
}

func checkNames(all []*Rule, names []string, key string) error {
	for i, n := range names {
		ok := n == "all" || n == DefaultSelection
		for _, r := range all {
			if matches(r, n) {
				ok = true
				break
			}
		}
		if !ok {
			hint := strings.TrimPrefix(suggestName(all, n), "; ")
			if hint == "" {
				hint = "the packs are " + strings.Join(Packs(all), ", ") + "; `mcplint rules` lists the rules"
			}
			return &NameError{Key: key, Index: i, Name: n, Hint: hint}
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
				ne := err.(*NameError)
				ne.Index, ne.Suppression = i, true
				return nil, ne
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

// DefaultDescription says what runs when no selection says otherwise, in
// the words help texts and the README use: the default packs, then the
// rules on by default because they protect a consumer in its default mode
// (DefaultOn), by pack where a whole pack is, by ID otherwise. It is
// computed from the catalogue so that no help text can list less.
func DefaultDescription(all []*Rule) string {
	var whole, single []string
	inWhole := map[*Rule]bool{}
	for _, p := range Packs(all) {
		if slices.Contains(DefaultPacks, p) {
			continue
		}
		var rs []*Rule
		for _, r := range all {
			if r.InPack(p) {
				rs = append(rs, r)
			}
		}
		if len(rs) > 0 && !slices.ContainsFunc(rs, func(r *Rule) bool { return !DefaultOn(r) }) {
			whole = append(whole, p)
			for _, r := range rs {
				inWhole[r] = true
			}
		}
	}
	for _, r := range all {
		if DefaultOn(r) && !inWhole[r] && !slices.ContainsFunc(DefaultPacks, r.InPack) {
			single = append(single, r.ID)
		}
	}
	s := "packs " + andList(DefaultPacks)
	var extra []string
	if len(whole) > 0 {
		extra = append(extra, "packs "+andList(whole))
	}
	if len(single) > 0 {
		extra = append(extra, andList(single))
	}
	if len(extra) > 0 {
		s += ", and the rules that protect a client in its default mode: " + strings.Join(extra, ", and ")
	}
	return s
}

// andList joins "a, b and c".
func andList(l []string) string {
	if len(l) < 2 {
		return strings.Join(l, "")
	}
	return strings.Join(l[:len(l)-1], ", ") + " and " + l[len(l)-1]
}
