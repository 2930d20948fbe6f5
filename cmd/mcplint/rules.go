package main

import (
	"context"

	"github.com/urfave/cli/v3"

	"github.com/mcplint/mcplint/lint"
	"github.com/mcplint/mcplint/report"
)

func (e *env) rulesCommand() *cli.Command {
	return &cli.Command{
		Name:      "rules",
		Usage:     "list the rules, or explain one",
		ArgsUsage: "[RULE...]",
		Description: `Without RULE, lists every rule: its ID, packs, default severity, fix kind
and summary. With RULE IDs, prints each rule's documentation: why it
exists, who breaks, a bad and a good example, its options and their
defaults, and its sources.`,
		OnUsageError: onUsageError,
		Flags:        []cli.Flag{formatFlag()},
		Action:       e.rules,
	}
}

func (e *env) rules(_ context.Context, cmd *cli.Command) error {
	fmtName, err := format(cmd)
	if err != nil {
		return err
	}
	ids := cmd.Args().Slice()
	if len(ids) == 0 {
		if fmtName == "json" {
			return report.WriteRulesJSON(e.stdout, e.catalogue)
		}
		return report.WriteRuleTable(e.stdout, e.catalogue)
	}
	var picked []*lint.Rule
	for _, id := range ids {
		r := e.rule(id)
		if r == nil {
			return usagef("unknown rule %q (`mcplint rules` lists the rules)", id)
		}
		picked = append(picked, r)
	}
	switch {
	case fmtName == "json" && len(picked) == 1:
		return report.WriteRuleJSON(e.stdout, picked[0])
	case fmtName == "json":
		return report.WriteRulesJSON(e.stdout, picked)
	}
	for i, r := range picked {
		if i > 0 {
			if _, err := e.stdout.Write([]byte("\n")); err != nil {
				return err
			}
		}
		if err := report.WriteRuleDoc(e.stdout, r); err != nil {
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
