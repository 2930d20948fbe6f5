package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/mcpfit/mcplint/consumer"
	"github.com/mcpfit/mcplint/lint"
)

// refusal is one cell of the consumer matrix: a rule that protects a
// consumer, with the refusal's own error and source.
type refusal struct {
	rule *lint.Rule
	consumer.Refusal
}

// matrix lists, per consumer of the matrix, the rules that protect it, in
// catalogue order.
func matrix(rules []*lint.Rule) map[consumer.ID][]refusal {
	out := map[consumer.ID][]refusal{}
	for _, r := range rules {
		seen := map[consumer.ID]bool{}
		for _, f := range r.Consumers {
			if seen[f.Consumer] {
				continue
			}
			seen[f.Consumer] = true
			out[f.Consumer] = append(out[f.Consumer], refusal{rule: r, Refusal: f})
		}
	}
	return out
}

// WriteConsumerTable writes the consumer matrix for a terminal: each
// consumer, its mode, whether its rules run by default, and the rules that
// protect it.
func WriteConsumerTable(w io.Writer, rules []*lint.Rule) error {
	m := matrix(rules)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "CONSUMER\tNAME\tDEFAULT\tRULES")
	for _, c := range consumer.All {
		var ids []string
		for _, f := range m[c.ID] {
			ids = append(ids, f.rule.ID)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", c.ID, c.Name, onOff(c.Default), strings.Join(ids, ", "))
	}
	return tw.Flush()
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "opt-in"
}

// JSONConsumer is a consumer in `mcplint rules --consumers --format json`.
type JSONConsumer struct {
	ID      string            `json:"id"`
	Name    string            `json:"name"`
	Mode    string            `json:"mode"`
	Default bool              `json:"default"`
	Uses    []string          `json:"uses"`
	Users   string            `json:"users"`
	Source  string            `json:"source"`
	Refuses []JSONConsumerRef `json:"refuses"`
}

// JSONConsumerRef is a rule that protects a consumer.
type JSONConsumerRef struct {
	Rule    string `json:"rule"`
	Mangles bool   `json:"mangles"`
	Error   string `json:"error,omitempty"`
	Source  string `json:"source"`
}

// WriteConsumersJSON writes the matrix as {"version": 1, "consumers": [...]}.
func WriteConsumersJSON(w io.Writer, rules []*lint.Rule) error {
	m := matrix(rules)
	doc := struct {
		Version   int            `json:"version"`
		Consumers []JSONConsumer `json:"consumers"`
	}{Version: JSONVersion, Consumers: []JSONConsumer{}}
	for _, c := range consumer.All {
		jc := JSONConsumer{ID: string(c.ID), Name: c.Name, Mode: c.Mode, Default: c.Default, Uses: []string{},
			Users: c.Users, Source: c.Source, Refuses: []JSONConsumerRef{}}
		for _, u := range c.Uses {
			jc.Uses = append(jc.Uses, string(u))
		}
		for _, f := range m[c.ID] {
			jc.Refuses = append(jc.Refuses, JSONConsumerRef{Rule: f.rule.ID, Mangles: f.Mangles, Error: f.Error, Source: f.Source})
		}
		doc.Consumers = append(doc.Consumers, jc)
	}
	return writeJSON(w, doc)
}

// WriteConsumersMarkdown writes docs/consumers.md: the consumer matrix,
// one section per consumer with a row per rule that protects it.
func WriteConsumersMarkdown(w io.Writer, rules []*lint.Rule) error {
	m := matrix(rules)
	bw := bufio.NewWriter(w)
	fmt.Fprint(bw, `# Consumers

<!-- Generated from package consumer and the rules' Consumers by `+"`go generate ./docs`"+`; do not edit. -->

Every program that reads a server's tool definitions, in the mode it reads them, with its profile (what it
takes, each line with its source and the rules that report it: `+"`mcplint rules CONSUMER`"+` prints it), what it
refuses (or silently alters) and the public source that shows it. A rule that protects a consumer in its default
mode runs without flags; the rules of an opt-in mode run when their pack is selected. Findings name the
consumers that refuse them ("refused by: Anthropic API (and so Claude Code, claude.ai connectors)").

| Consumer | Mode | Default | Built on | Used by |
|---|---|---|---|---|
`)
	for _, c := range consumer.All {
		var uses []string
		for _, u := range c.Uses {
			uses = append(uses, "`"+string(u)+"`")
		}
		fmt.Fprintf(bw, "| [%s](#%s) (`%s`) | %s | %s | %s | %s |\n", mdCell(c.Name), c.ID, c.ID, mdCell(c.Mode), onOff(c.Default), strings.Join(uses, ", "), mdCell(c.Users))
	}
	for _, c := range consumer.All {
		fmt.Fprintf(bw, "\n## %s\n\n%s, %s. Source: %s.\n\n", c.ID, c.Name, mdCell(c.Mode), c.Source)
		profileMarkdown(bw, c, rules)
		if len(m[c.ID]) == 0 {
			fmt.Fprint(bw, "No rule protects it yet.\n")
			continue
		}
		fmt.Fprint(bw, "| Refuses | Rule | Its error | Source |\n|---|---|---|---|\n")
		for _, f := range m[c.ID] {
			what := mdCell(f.rule.Summary)
			if f.Mangles {
				what = "alters: " + what
			}
			errText := ""
			if f.Error != "" {
				errText = "`" + strings.ReplaceAll(f.Error, "|", `\|`) + "`"
			}
			fmt.Fprintf(bw, "| %s | [`%s`](rules.md#%s) | %s | %s |\n", what, f.rule.ID, f.rule.ID, errText, mdCell(f.Source))
		}
	}
	return bw.Flush()
}

// mdCell escapes text for a Markdown table cell.
func mdCell(s string) string { return strings.ReplaceAll(mdEscape(s), "|", `\|`) }
