package main

import (
	"context"
	"fmt"
	"slices"

	"github.com/urfave/cli/v3"

	"github.com/mcpfit/mcplint/consumer"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/report"
)

func (e *env) rulesCommand() *cli.Command {
	return &cli.Command{
		Name:      "rules",
		Usage:     "list the rules, or explain one",
		ArgsUsage: "[RULE|PACK|CONSUMER...]",
		Description: `Without RULE, lists every rule: its ID, packs, default severity, fix kind
and summary. With RULE IDs, prints each rule's documentation: why it
exists, who breaks, the consumers it protects, a bad and a good example,
its options and their defaults, and its sources. A PACK name (mcp,
security, openai-strict, ...) lists the rules of that pack; a CONSUMER ID
(anthropic, vscode, ...) prints its profile (what it takes, each line with
its source and the rules that report it) and the rules protecting it.
--consumers lists the consumer matrix: every program that reads tool
definitions, its mode, whether its rules run by default, and its rules.`,
		OnUsageError: onUsageError,
		Flags: []cli.Flag{formatFlag(), &cli.BoolFlag{
			Name:  "consumers",
			Usage: "list the consumers (clients, SDKs, model APIs) and the rules that protect each",
		}},
		Action: e.rules,
	}
}

func (e *env) rules(_ context.Context, cmd *cli.Command) error {
	fmtName, err := format(cmd)
	if err != nil {
		return err
	}
	if cmd.Bool("consumers") {
		if fmtName == "json" {
			return report.WriteConsumersJSON(e.stdout, e.catalogue)
		}
		return report.WriteConsumerTable(e.stdout, e.catalogue)
	}
	ids := cmd.Args().Slice()
	if len(ids) == 1 && e.rule(ids[0]) == nil {
		if c := consumer.ByID(consumer.ID(ids[0])); c != nil {
			if fmtName == "json" {
				return report.WriteProfileJSON(e.stdout, c, e.group(ids[0]), e.catalogue)
			}
			if err := report.WriteProfile(e.stdout, c, e.catalogue); err != nil {
				return err
			}
			fmt.Fprintln(e.stdout, "\nRules that protect it:")
			return report.WriteRuleTable(e.stdout, e.group(ids[0]), e.catalogue)
		}
		if group := e.group(ids[0]); group != nil {
			if fmtName == "json" {
				return report.WriteRulesJSON(e.stdout, group, e.catalogue)
			}
			return report.WriteRuleTable(e.stdout, group, e.catalogue)
		}
	}
	if len(ids) == 0 {
		if fmtName == "json" {
			return report.WriteRulesJSON(e.stdout, e.catalogue, e.catalogue)
		}
		return report.WriteRuleTable(e.stdout, e.catalogue, e.catalogue)
	}
	var picked []*lint.Rule
	for _, id := range ids {
		r := e.rule(id)
		if r == nil {
			hint := e.suggestRule(id)
			if hint == "" {
				hint = "; `mcplint rules` lists the rules, `mcplint rules --consumers` the consumers"
			}
			return usagef("unknown rule %q%s", id, hint)
		}
		picked = append(picked, r)
	}
	switch {
	case fmtName == "json" && len(picked) == 1:
		return report.WriteRuleJSON(e.stdout, picked[0], e.catalogue)
	case fmtName == "json":
		return report.WriteRulesJSON(e.stdout, picked, e.catalogue)
	}
	for i, r := range picked {
		if i > 0 {
			if _, err := e.stdout.Write([]byte("\n")); err != nil {
				return err
			}
		}
		if err := report.WriteRuleDoc(e.stdout, r, e.catalogue); err != nil {
			return err
		}
	}
	return nil
}

func (e *env) rule(id string) *lint.Rule {
	for _, r := range e.catalogue {
		if r.ID == id {
			return r
		}
	}
	return nil
}

// group returns the rules of a pack, or the rules protecting a consumer;
// nil when name is neither.
func (e *env) group(name string) []*lint.Rule {
	var out []*lint.Rule
	for _, r := range e.catalogue {
		if r.InPack(name) || slices.ContainsFunc(r.Consumers, func(f consumer.Refusal) bool { return string(f.Consumer) == name }) {
			out = append(out, r)
		}
	}
	return out
}

// suggestRule names the rule, pack or consumer closest to a mistyped name.
func (e *env) suggestRule(name string) string {
	var candidates []string
	for _, r := range e.catalogue {
		candidates = append(candidates, r.ID)
	}
	candidates = append(candidates, lint.Packs(e.catalogue)...)
	for _, c := range consumer.All {
		candidates = append(candidates, string(c.ID))
	}
	if s := lint.Closest(name, candidates); s != "" {
		return fmt.Sprintf("; did you mean %q?", s)
	}
	return ""
}
