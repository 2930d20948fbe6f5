package main

import (
	"context"

	"github.com/urfave/cli/v3"

	"github.com/mcpfit/mcplint/config"
)

func (e *env) schemaCommand() *cli.Command {
	return &cli.Command{
		Name:         "schema",
		Usage:        "print the JSON Schema of a file mcplint reads",
		OnUsageError: onUsageError,
		Commands: []*cli.Command{{
			Name:  "config",
			Usage: "print the JSON Schema of .mcplint.yaml (.yml, .json), for editors",
			Description: `Prints the JSON Schema (draft 2020-12) that every configuration file is
validated against. Save it and point your editor at it: with the YAML
language server (VS Code's YAML extension), a first line
  # yaml-language-server: $schema=./mcplint.schema.json
or, in .mcplint.json, a "$schema" member.`,
			OnUsageError: onUsageError,
			Action: func(context.Context, *cli.Command) error {
				_, err := unguarded(e.stdout).Write(config.Schema())
				return err
			},
		}},
	}
}
