package report

import (
	"bufio"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/mcpfit/mcplint/consumer"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/schema"
)

// WriteRuleTable writes one aligned line per rule: ID, packs, severity, fix
// kind and summary, under a header.
// The fix kind is what a finding can carry (lint.OfferedFix), all being the
// catalogue the rules are from.
func WriteRuleTable(w io.Writer, rules, all []*lint.Rule) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "RULE\tPACKS\tSEVERITY\tFIX\tSUMMARY")
	for _, r := range rules {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.ID, strings.Join(r.Packs, ","), r.Severity, lint.OfferedFix(r, all), r.Summary)
	}
	return tw.Flush()
}

// WriteRuleDoc writes a rule's documentation: its summary, packs, severity,
// fix kind, options with their defaults, then its doc. all is the
// catalogue, for the rules its findings merge with.
func WriteRuleDoc(w io.Writer, r *lint.Rule, all []*lint.Rule) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%s: %s\n\n", r.ID, r.Summary)
	tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "Packs:\t%s\n", strings.Join(r.Packs, ", "))
	if lint.DefaultOn(r) {
		fmt.Fprintf(tw, "Default:\ton\n")
	} else {
		fmt.Fprintf(tw, "Default:\toff (turn it on with --extend-select %s)\n", r.ID)
	}
	fmt.Fprintf(tw, "Severity:\t%s\n", r.Severity)
	for i, f := range r.Consumers {
		label := ""
		if i == 0 {
			label = "Protects:"
		}
		c := consumer.ByID(f.Consumer)
		line := c.Name
		if l := f.ProfileLine(); l != nil {
			line += " " + f.Action().String() + " (" + f.Line + ": " + l.Text + ")"
		} else if f.Mangles {
			line += " (which alters it)"
		}
		line += "; " + f.Source
		fmt.Fprintf(tw, "%s\t%s\n", label, line)
	}
	fmt.Fprintf(tw, "Fix:\t%s\n", fixText(r, all))
	if m := mergesText(r, all); m != "" {
		fmt.Fprintf(tw, "Merges with:\t%s\n", m)
	}
	if len(r.Defers) > 0 {
		ids := make([]string, len(r.Defers))
		for i, d := range r.Defers {
			ids[i] = d.ID
		}
		fmt.Fprintf(tw, "Gives way to:\t%s\n", strings.Join(ids, ", "))
	}
	if len(r.Options) == 0 {
		fmt.Fprintf(tw, "Options:\tnone\n")
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(r.Options) > 0 {
		fmt.Fprintf(bw, "Options (set with --option %s.NAME=VALUE):\n", r.ID)
		for _, name := range slices.Sorted(maps.Keys(r.Options)) {
			fmt.Fprintf(bw, "  %s = %s\n", name, schema.Compact(r.Options[name]))
		}
	}
	if doc := strings.TrimSpace(r.Doc); doc != "" {
		fmt.Fprintf(bw, "\n%s\n", doc)
	}
	return bw.Flush()
}

// JSONRule is a rule in the JSON formats of `mcplint rules`.
type JSONRule struct {
	ID       string   `json:"id"`
	Packs    []string `json:"packs"`
	Default  bool     `json:"default"`
	Severity string   `json:"severity"`
	Fix      string   `json:"fix"`
	// OfferedFix is what a finding can carry: Fix, and the fixes of the
	// rules in MergesWith, whose findings merge with this rule's.
	OfferedFix string         `json:"offeredFix"`
	MergesWith []string       `json:"mergesWith"`
	Summary    string         `json:"summary"`
	Options    map[string]any `json:"options"`
	Doc        string         `json:"doc"`
	// Consumers are the programs the rule protects (package consumer).
	Consumers []JSONConsumerRefusal `json:"consumers"`
}

// JSONConsumerRefusal is one consumer a rule protects.
type JSONConsumerRefusal struct {
	ID      string `json:"id"`
	Mangles bool   `json:"mangles"`
	// Line is the line of the consumer's profile the rule reports.
	Line   string `json:"line,omitempty"`
	Error  string `json:"error,omitempty"`
	Source string `json:"source"`
}

// JSONRules is the document of `mcplint rules --format json`.
type JSONRules struct {
	Version int        `json:"version"`
	Rules   []JSONRule `json:"rules"`
}

// NewJSONRule describes a rule of the catalogue all for the JSON formats.
func NewJSONRule(r *lint.Rule, all []*lint.Rule) JSONRule {
	opts := r.Options
	if opts == nil {
		opts = map[string]any{}
	}
	packs := r.Packs
	if packs == nil {
		packs = []string{}
	}
	cons := []JSONConsumerRefusal{}
	for _, f := range r.Consumers {
		cons = append(cons, JSONConsumerRefusal{ID: string(f.Consumer), Mangles: f.Mangles, Line: f.Line, Error: f.Error, Source: f.Source})
	}
	merges := []string{}
	for _, o := range lint.Merges(r, all) {
		merges = append(merges, o.ID)
	}
	return JSONRule{
		ID: r.ID, Packs: packs, Default: lint.DefaultOn(r), Severity: r.Severity.String(),
		Fix: r.Fix.String(), OfferedFix: lint.OfferedFix(r, all).String(), MergesWith: merges,
		Summary: r.Summary, Options: opts, Doc: strings.TrimSpace(r.Doc), Consumers: cons,
	}
}

// WriteRulesJSON writes rules of the catalogue all as {"version": 1,
// "rules": [...]}.
func WriteRulesJSON(w io.Writer, rules, all []*lint.Rule) error {
	doc := JSONRules{Version: JSONVersion, Rules: []JSONRule{}}
	for _, r := range rules {
		doc.Rules = append(doc.Rules, NewJSONRule(r, all))
	}
	return writeJSON(w, doc)
}

// WriteRuleJSON writes one rule of the catalogue all as a JSON object.
func WriteRuleJSON(w io.Writer, r *lint.Rule, all []*lint.Rule) error {
	return writeJSON(w, NewJSONRule(r, all))
}
