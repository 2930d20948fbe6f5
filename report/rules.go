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
func WriteRuleTable(w io.Writer, rules []*lint.Rule) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "RULE\tPACKS\tSEVERITY\tFIX\tSUMMARY")
	for _, r := range rules {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.ID, strings.Join(r.Packs, ","), r.Severity, r.Fix, r.Summary)
	}
	return tw.Flush()
}

// WriteRuleDoc writes a rule's documentation: its summary, packs, severity,
// fix kind, options with their defaults, then its doc.
func WriteRuleDoc(w io.Writer, r *lint.Rule) error {
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
		if f.Mangles {
			line += " (which alters it)"
		}
		line += "; " + f.Source
		fmt.Fprintf(tw, "%s\t%s\n", label, line)
	}
	fmt.Fprintf(tw, "Fix:\t%s\n", r.Fix)
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
	ID       string         `json:"id"`
	Packs    []string       `json:"packs"`
	Default  bool           `json:"default"`
	Severity string         `json:"severity"`
	Fix      string         `json:"fix"`
	Summary  string         `json:"summary"`
	Options  map[string]any `json:"options"`
	Doc      string         `json:"doc"`
	// Consumers are the programs the rule protects (package consumer).
	Consumers []JSONConsumerRefusal `json:"consumers"`
}

// JSONConsumerRefusal is one consumer a rule protects.
type JSONConsumerRefusal struct {
	ID      string `json:"id"`
	Mangles bool   `json:"mangles"`
	Error   string `json:"error,omitempty"`
	Source  string `json:"source"`
}

// JSONRules is the document of `mcplint rules --format json`.
type JSONRules struct {
	Version int        `json:"version"`
	Rules   []JSONRule `json:"rules"`
}

// NewJSONRule describes a rule for the JSON formats.
func NewJSONRule(r *lint.Rule) JSONRule {
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
		cons = append(cons, JSONConsumerRefusal{ID: string(f.Consumer), Mangles: f.Mangles, Error: f.Error, Source: f.Source})
	}
	return JSONRule{
		ID: r.ID, Packs: packs, Default: lint.DefaultOn(r), Severity: r.Severity.String(),
		Fix: r.Fix.String(), Summary: r.Summary, Options: opts, Doc: strings.TrimSpace(r.Doc),
		Consumers: cons,
	}
}

// WriteRulesJSON writes the catalogue as {"version": 1, "rules": [...]}.
func WriteRulesJSON(w io.Writer, rules []*lint.Rule) error {
	doc := JSONRules{Version: JSONVersion, Rules: []JSONRule{}}
	for _, r := range rules {
		doc.Rules = append(doc.Rules, NewJSONRule(r))
	}
	return writeJSON(w, doc)
}

// WriteRuleJSON writes one rule as a JSON object.
func WriteRuleJSON(w io.Writer, r *lint.Rule) error {
	return writeJSON(w, NewJSONRule(r))
}
