package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/mcpfit/mcplint/convert"
	"github.com/mcpfit/mcplint/guard"
	"github.com/mcpfit/mcplint/internal/par"
	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/normalize"
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
keyword, a name it refuses and that is therefore renamed, a description cut
to fit, a property it cannot express left out) is a warning on standard
error, placed at the tool in FILE; a member the target has no place for
("title", "annotations", ...) is one summary line for all the tools that
lose it. Nothing is dropped silently.

The output is then checked with mcplint's rules for the target's
consumers. What they still refuse is an error, and the run exits with
status 1 whatever --fail-on says (the output is still written, for
inspection). With --fail-on warning, warnings exit with status 1 too.
Exit status 2: a usage error, or a FILE that cannot be read, parsed or
converted; nothing is written then.`

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
		return badChoice("--fail-on", "value", cmd.String("fail-on"), []string{"warning", "never"})
	}
	if cmd.NArg() > 1 {
		return usagef("%d files: convert reads one manifest; convert them one at a time", cmd.NArg())
	}
	if err := generatedPath("-o", cmd.String("output")); err != nil {
		return err
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
	o.MaxRefExpansion = m.Limits().RefExpansion
	out, warns, err := convert.To(target, tools, o)
	if err != nil {
		var te *convert.ToolError
		if errors.As(err, &te) {
			return &inputErrors{errs: []error{fmt.Errorf("%s: %w", placed(m, te.Index, te.Pointer), te)}}
		}
		return &inputErrors{errs: []error{fmt.Errorf("%s: %w", m.Path, err)}}
	}
	if path := cmd.String("output"); path != "" {
		if err := e.writeFile(ctx, path, out); err != nil {
			return &inputErrors{errs: []error{err}}
		}
	} else if _, err := unguarded(e.stdout).Write(out); err != nil {
		return err
	}
	var skipped []placedLine
	for _, sk := range m.Skipped {
		what := "a provider tool"
		if sk.Type != "" {
			what = fmt.Sprintf("the provider tool %q", sk.Type)
		}
		skipped = append(skipped, reportLine(m.Path, m.Position(sk.Offset), "warning", fmt.Sprintf("%s %s: not a function, so there is nothing to convert; dropped", what, sk.Pointer)))
	}
	warned, refused := warningLines(m, warns)
	lines := slices.Concat(skipped, warned)
	// In source order, so that the report reads along the file.
	slices.SortStableFunc(lines, func(a, b placedLine) int { return a.off - b.off })
	// Buffered: a conversion of thousands of tools says tens of thousands
	// of lines, and a write each took a fifth of its time.
	w := bufio.NewWriter(e.stderr)
	for _, l := range lines {
		w.Write(l.text)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if refused || failOnWarning && len(lines) > 0 {
		return errFindings
	}
	return nil
}

// placedLine is one line of convert's report, whole, with the offset in
// the source it is sorted by (0 when it has no place).
type placedLine struct {
	off  int
	text []byte
}

// convertOptions reads --to and the flags that tune it.
func convertOptions(cmd *cli.Command) (convert.Options, string, error) {
	target := cmd.String("to")
	if target == "" {
		return convert.Options{}, "", usagef("--to is required; give the format to convert to: %s", orList(convert.Targets))
	}
	if !slices.Contains(convert.Targets, target) {
		return convert.Options{}, "", badChoice("--to", "format", target, convert.Targets)
	}
	for _, f := range convertFlags {
		if cmd.IsSet(f.flag) && f.target != target {
			return convert.Options{}, "", usagef("--%s applies only to --to %s; drop it, or convert --to %s", f.flag, f.target, f.target)
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
		return o, "", badChoice("--api", "API", o.API, []string{"chat", "responses"})
	case o.Zod != 3 && o.Zod != 4:
		return o, "", usagef("--zod: unknown Zod major version %d; want 3 or 4", o.Zod)
	case o.GeminiMaxDepth < 1:
		return o, "", usagef("--gemini-max-depth: %d is not a positive number; give 1 or more", o.GeminiMaxDepth)
	case o.GeminiJSONSchema && cmd.IsSet("gemini-max-depth"):
		return o, "", usagef("--gemini-max-depth applies to parameters, not --gemini-json-schema (parametersJsonSchema keeps recursion); drop one of them")
	}
	return o, target, nil
}

// reportLine is the line PLACE: SEVERITY: TEXT (see appendPlace), the path
// and the text through guard.Text. It is built by hand: formatting tens of
// thousands of them with fmt took a twentieth of a strict conversion.
func reportLine(path string, pos manifest.Position, severity, text string) placedLine {
	path, text = guard.Text(path), guard.Text(text)
	b := appendPlace(make([]byte, 0, len(path)+len(severity)+len(text)+28), path, pos)
	b = append(b, ": "...)
	b = append(b, severity...)
	b = append(b, ": "...)
	b = append(b, text...)
	b = append(b, '\n')
	return placedLine{pos.Offset, b}
}

// warningLines are the report's lines for the warnings, in their order,
// each placed at its tool's pointer (unplaced when there is no such tool),
// and whether one is a refusal (an error). The places of one tool's
// warnings are found in one reading of the tool, and tools are read and
// their lines written on every CPU: thousands of tools warn tens of
// thousands of times.
func warningLines(m *manifest.Manifest, warns []convert.Warning) ([]placedLine, bool) {
	lines := make([]placedLine, len(warns))
	refused := false
	line := func(i int, pos manifest.Position) {
		severity := "warning"
		if warns[i].Refused {
			severity = "error"
		}
		lines[i] = reportLine(m.Path, pos, severity, warns[i].String())
	}
	byTool := make([][]int, len(m.Tools))
	for i, w := range warns {
		refused = refused || w.Refused
		if w.Index >= 0 && w.Index < len(m.Tools) {
			byTool[w.Index] = append(byTool[w.Index], i)
		} else {
			line(i, manifest.Position{})
		}
	}
	par.ForEach(len(byTool), func(ti int) {
		idx := byTool[ti]
		if len(idx) == 0 {
			return
		}
		ptrs := make([]string, len(idx))
		for j, i := range idx {
			ptrs[j] = warns[i].Pointer
		}
		for j, pl := range m.Tools[ti].Places(ptrs) {
			line(idx[j], m.Position(pl.Offset()))
		}
	})
	return lines, refused
}

// placed is FILE:LINE:COL of a pointer relative to tool index, or FILE
// when there is no such tool.
func placed(m *manifest.Manifest, index int, ptr string) string {
	return string(appendPlace(nil, m.Path, position(m, index, ptr)))
}

// appendPlace appends FILE:LINE:COL, or FILE alone for the zero Position
// (nowhere in the file), to b.
func appendPlace(b []byte, path string, pos manifest.Position) []byte {
	b = append(b, path...)
	if pos.Line == 0 {
		return b
	}
	b = append(b, ':')
	b = strconv.AppendInt(b, int64(pos.Line), 10)
	b = append(b, ':')
	return strconv.AppendInt(b, int64(pos.Column), 10)
}

// position locates a pointer relative to tool index in the source (its
// deepest existing ancestor when the source lacks it); the zero Position
// when there is no such tool.
func position(m *manifest.Manifest, index int, ptr string) manifest.Position {
	if index < 0 || index >= len(m.Tools) {
		return manifest.Position{}
	}
	return m.Tools[index].Locate(ptr)
}
