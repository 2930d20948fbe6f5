package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/mcplint/mcplint/convert"
	"github.com/mcplint/mcplint/manifest"
	"github.com/mcplint/mcplint/normalize"
)

const convertDescription = `Reads the manifest FILE ("-" or no FILE: standard input), in any shape lint
reads (MCP, OpenAI, Anthropic or Gemini tools), and writes its tools in the
format --to names, on standard output or to -o FILE:

  mcp        a tools/list result {"tools": [...]}
  openai     {"tools": [...]} for a Chat Completions request, or with
             --api responses for a Responses request; --strict writes
             strict-mode tools
  anthropic  {"tools": [...]} for a Messages request
  gemini     {"functionDeclarations": [...]}, one entry of a request's
             "tools"; --gemini-json-schema uses parametersJsonSchema
  zod        a TypeScript module of Zod schemas (--zod 3 or 4)

Each target gets the schema form it accepts. Whatever it cannot carry (a
keyword, a member, a name it refuses and that is therefore renamed) is a
warning on standard error, placed at the tool in FILE; nothing is dropped
silently. With --fail-on warning a run with warnings exits with status 1
(the output is still written). Exit status 2: a usage error, or a FILE that
cannot be read, parsed or converted; nothing is written then.`

func (e *env) convertCommand() *cli.Command {
	return &cli.Command{
		Name:         "convert",
		Usage:        "convert tool definitions between MCP, OpenAI, Anthropic, Gemini and Zod",
		ArgsUsage:    "[FILE]",
		Description:  convertDescription,
		OnUsageError: onUsageError,
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "to", Usage: "the `FORMAT` to write: " + strings.Join(convert.Targets, ", ")},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write to `FILE` (replaced atomically) instead of standard output"},
			&cli.StringFlag{Name: "api", Usage: "--to openai: the `API` the tools are for: chat (Chat Completions, the default) or responses"},
			&cli.BoolFlag{Name: "strict", Usage: "--to openai: write strict-mode tools (\"strict\": true and a schema strict mode accepts)"},
			&cli.BoolFlag{Name: "gemini-json-schema", Usage: "--to gemini: put the JSON Schema in parametersJsonSchema rather than the OpenAPI subset in parameters"},
			&cli.IntFlag{Name: "gemini-max-depth", Value: normalize.DefaultGeminiDepth, Usage: "--to gemini: expand a recursive schema `N` times, then cut it (with a warning)"},
			&cli.IntFlag{Name: "zod", Value: 4, Usage: "--to zod: the Zod major `VERSION`, 3 or 4"},
			&cli.StringFlag{Name: "fail-on", Value: "never", Usage: "`WHEN` to exit with status 1: warning (the conversion warned) or never"},
		}, fileLimitFlags()...),
		Action: e.convert,
	}
}

// convertFlags are the flags that tune one target, with the target they
// belong to: given for another target they would be ignored, which hides a
// mistake, so they are refused.
var convertFlags = []struct{ flag, target string }{
	{"api", "openai"}, {"strict", "openai"},
	{"gemini-json-schema", "gemini"}, {"gemini-max-depth", "gemini"},
	{"zod", "zod"},
}

func (e *env) convert(ctx context.Context, cmd *cli.Command) error {
	o, target, err := convertOptions(cmd)
	if err != nil {
		return err
	}
	if err := e.readFileLimits(cmd); err != nil {
		return err
	}
	failOnWarning := false
	switch cmd.String("fail-on") {
	case "warning":
		failOnWarning = true
	case "never":
	default:
		return usagef("--fail-on: unknown value %q (want warning or never)", cmd.String("fail-on"))
	}
	if cmd.NArg() > 1 {
		return usagef("%d files: convert reads one manifest", cmd.NArg())
	}
	paths, err := e.paths(cmd.Args().Slice())
	if err != nil {
		return err
	}
	m, err := e.load(paths[0])
	if err != nil {
		return &inputErrors{errs: []error{err}}
	}
	tools, err := convert.FromManifest(m)
	if err != nil {
		return &inputErrors{errs: []error{err}}
	}
	out, warns, err := convert.To(target, tools, o)
	if err != nil {
		var te *convert.ToolError
		if errors.As(err, &te) {
			return &inputErrors{errs: []error{errors.New(placed(m, te.Index, te.Pointer) + ": " + te.Error())}}
		}
		return &inputErrors{errs: []error{fmt.Errorf("%s: %w", m.Path, err)}}
	}
	if path := cmd.String("output"); path != "" {
		if err := e.writeFile(ctx, path, out); err != nil {
			return &inputErrors{errs: []error{err}}
		}
	} else if _, err := e.stdout.Write(out); err != nil {
		return err
	}
	for _, sk := range m.Skipped {
		pos := m.Position(sk.Offset)
		what := "a provider tool"
		if sk.Type != "" {
			what = fmt.Sprintf("the provider tool %q", sk.Type)
		}
		fmt.Fprintf(e.stderr, "%s:%d:%d: warning: %s %s: not a function, so there is nothing to convert; dropped\n", m.Path, pos.Line, pos.Column, what, sk.Pointer)
	}
	for _, w := range warns {
		fmt.Fprintln(e.stderr, warningLine(m, w))
	}
	if failOnWarning && len(warns)+len(m.Skipped) > 0 {
		return errFindings
	}
	return nil
}

// convertOptions reads --to and the flags that tune it.
func convertOptions(cmd *cli.Command) (convert.Options, string, error) {
	target := cmd.String("to")
	if target == "" {
		return convert.Options{}, "", usagef("--to is required: %s", strings.Join(convert.Targets, ", "))
	}
	if !slices.Contains(convert.Targets, target) {
		return convert.Options{}, "", usagef("--to: unknown format %q (want %s)", target, strings.Join(convert.Targets, ", "))
	}
	for _, f := range convertFlags {
		if cmd.IsSet(f.flag) && f.target != target {
			return convert.Options{}, "", usagef("--%s applies only to --to %s", f.flag, f.target)
		}
	}
	o := convert.Options{
		API:              cmd.String("api"),
		Strict:           cmd.Bool("strict"),
		GeminiJSONSchema: cmd.Bool("gemini-json-schema"),
		GeminiMaxDepth:   int(cmd.Int("gemini-max-depth")),
		Zod:              int(cmd.Int("zod")),
	}
	switch {
	case o.API != "" && o.API != "chat" && o.API != "responses":
		return o, "", usagef("--api: unknown API %q (want chat or responses)", o.API)
	case o.Zod != 3 && o.Zod != 4:
		return o, "", usagef("--zod: unknown Zod major version %d (want 3 or 4)", o.Zod)
	case o.GeminiMaxDepth < 1:
		return o, "", usagef("--gemini-max-depth: %d is not a positive number", o.GeminiMaxDepth)
	case o.GeminiJSONSchema && cmd.IsSet("gemini-max-depth"):
		return o, "", usagef("--gemini-max-depth applies to parameters, not --gemini-json-schema (parametersJsonSchema keeps recursion)")
	}
	return o, target, nil
}

// warningLine places a warning at its tool in the source, so that an editor
// can jump to it: FILE:LINE:COL: warning: tool "NAME" POINTER: MESSAGE.
func warningLine(m *manifest.Manifest, w convert.Warning) string {
	return fmt.Sprintf("%s: warning: %s", placed(m, w.Index, w.Pointer), w)
}

// placed is FILE:LINE:COL of a pointer relative to tool index, or FILE
// when there is no such tool.
func placed(m *manifest.Manifest, index int, ptr string) string {
	if index < 0 || index >= len(m.Tools) {
		return m.Path
	}
	pos := m.Tools[index].Locate(ptr)
	return fmt.Sprintf("%s:%d:%d", m.Path, pos.Line, pos.Column)
}
