package mcpserver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpfit/mcplint/convert"
	"github.com/mcpfit/mcplint/guard"
	"github.com/mcpfit/mcplint/internal/elide"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/report"
)

// Selection chooses the rules, as the command line's flags do.
type Selection struct {
	Select []string `json:"select,omitempty" jsonschema:"Rule IDs or pack names to run instead of the default selection (the packs mcp and robust, and every rule protecting a client in its default mode). Example: [\"mcp\", \"openai-strict\"]."`
	Ignore []string `json:"ignore,omitempty" jsonschema:"Rule IDs or pack names not to run."`
	Strict bool     `json:"strict,omitempty" jsonschema:"Also check for OpenAI's strict mode (Structured Outputs), as clients that turn it on need."`
}

func (s Selection) config() lint.Config {
	cfg := lint.Config{Select: s.Select, Ignore: s.Ignore}
	if s.Strict {
		cfg.ExtendSelect = append(cfg.ExtendSelect, "openai-strict")
	}
	return cfg
}

// LintInput is the lint tool's input.
type LintInput struct {
	Source
	Selection
}

// Finding is one finding in a structured result, its texts guarded.
type Finding struct {
	Rule     string `json:"rule" jsonschema:"The rule's ID; explain_rule documents it."`
	Severity string `json:"severity" jsonschema:"error, warning or info."`
	Tool     string `json:"tool" jsonschema:"The tool's name; empty when the finding is about no tool or the tool has none."`
	Line     int    `json:"line" jsonschema:"The line in the tool list, from 1; 0 when it has no place."`
	Column   int    `json:"column" jsonschema:"The column in bytes, from 1."`
	Message  string `json:"message" jsonschema:"What is wrong and what to do."`
	Fix      string `json:"fix" jsonschema:"none, safe (fix applies it) or unsafe (fix applies it with unsafeFixes)."`
	// RefusedBy names the clients that refuse it.
	RefusedBy []string `json:"refusedBy,omitempty" jsonschema:"The clients and APIs that refuse what was found."`
}

// Summary counts a result's findings.
type Summary struct {
	Errors        int `json:"errors" jsonschema:"Findings that the MCP specification or the TypeScript SDK refuse."`
	Warnings      int `json:"warnings" jsonschema:"Findings a mainstream client refuses, or that make models fail."`
	Infos         int `json:"infos" jsonschema:"Advice."`
	Tools         int `json:"tools" jsonschema:"Tools in the list."`
	ContextTokens int `json:"contextTokens" jsonschema:"Estimated tokens the tool definitions take in a model's context with every request."`
}

// LintOutput is the lint tool's structured result.
type LintOutput struct {
	Summary  Summary   `json:"summary"`
	Findings []Finding `json:"findings" jsonschema:"The findings, in file order (at most 200)."`
	// More counts the findings left out.
	More int `json:"more" jsonschema:"Findings left out of findings past the first 200."`
}

var readOnly = &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: new(false)}

func (h *handlers) addTools(s *mcp.Server) {
	mcp.AddTool(s, &mcp.Tool{
		Name:  "lint",
		Title: "Lint a tool list",
		Description: "Check the tool definitions of an MCP server (a tools/list result, given as text or as a file of the workspace) " +
			"against the MCP specification and what real clients accept (Claude, OpenAI, Gemini, Cursor, VS Code). " +
			"Returns each finding with its place, the clients that refuse it, and whether fix can repair it, " +
			"then a summary with the estimated tokens the definitions take in a model's context.",
		Annotations: readOnly,
	}, h.lint)
	mcp.AddTool(s, &mcp.Tool{
		Name:  "fix",
		Title: "Fix a tool list",
		Description: "Apply mcplint's safe fixes (with unsafeFixes, also those that change a tool's contract) to a tool list " +
			"given as text or as a file of the workspace. Returns the fixed list, a unified diff and what remains; " +
			"it writes nothing, so apply the result yourself.",
		Annotations: readOnly,
	}, h.fix)
	mcp.AddTool(s, &mcp.Tool{
		Name:  "convert",
		Title: "Convert a tool list",
		Description: "Write the tools of a tool list (text or a file of the workspace) in the format of another API: " +
			"mcp, openai (Chat Completions or Responses, optionally strict), anthropic, gemini or zod. " +
			"Returns the converted document and what the target could not carry.",
		Annotations: readOnly,
	}, h.convert)
	mcp.AddTool(s, &mcp.Tool{
		Name:        "explain_rule",
		Title:       "Explain a rule",
		Description: "Return the documentation of one of mcplint's rules: why it exists, which clients refuse what it reports, a bad and a good example, and its sources. Without a rule, list every rule with its summary.",
		Annotations: readOnly,
	}, h.explain)
}

// errorResult is a failed call's result: the error as text, guarded.
func errorResult(err error) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: clip(guard.Log(err.Error()))}}}
}

// clip bounds a text of a result at MaxText bytes, on a character
// boundary, and says so.
func clip(s string) string {
	if len(s) <= MaxText {
		return s
	}
	head := elide.Head(s, MaxText)
	return head + fmt.Sprintf("\n… cut here: %d more bytes not shown\n", len(s)-len(head))
}

// linter builds the linter of a selection, with options for a fix.
func (h *handlers) linter(cfg lint.Config) (*lint.Linter, error) {
	l, err := lint.New(h.o.Catalogue, cfg)
	if err != nil {
		return nil, fmt.Errorf("selection: %w", err)
	}
	return l, nil
}

// textReport is the text format of the findings, guarded and bounded;
// fixed counts the findings a fix fixed (in the fixed list it returns).
func textReport(files []report.File, fixed int) string {
	var b bytes.Buffer
	if err := report.WriteText(&b, files, report.TextOptions{Fixed: report.Fixed{Findings: fixed}}); err != nil {
		return guard.Log(err.Error())
	}
	return clip(b.String())
}

// findings are the structured findings of files, the first MaxFindings.
func findings(files []report.File) ([]Finding, int) {
	out := []Finding{}
	more := 0
	for _, f := range files {
		for _, d := range report.NewJSONReport([]report.File{f}).Diagnostics {
			if len(out) == MaxFindings {
				more++
				continue
			}
			out = append(out, Finding{
				Rule: d.Rule, Severity: d.Severity, Tool: guard.Log(d.Tool), Line: d.Line, Column: d.Column,
				Message: guard.Log(d.Message), Fix: d.Fix, RefusedBy: d.RefusedBy,
			})
		}
	}
	return out, more
}

func summary(files []report.File) Summary {
	s := report.Summarize(files)
	return Summary{Errors: s.Errors, Warnings: s.Warnings, Infos: s.Infos, Tools: s.Tools, ContextTokens: s.ContextTokens}
}

func (h *handlers) lint(ctx context.Context, _ *mcp.CallToolRequest, in LintInput) (*mcp.CallToolResult, LintOutput, error) {
	m, err := h.load(in.Source)
	if err != nil {
		return errorResult(err), LintOutput{}, nil
	}
	l, err := h.linter(in.config())
	if err != nil {
		return errorResult(err), LintOutput{}, nil
	}
	ds, err := l.LintContext(ctx, m)
	if err != nil {
		return errorResult(err), LintOutput{}, nil
	}
	files := []report.File{{Manifest: m, Diagnostics: ds}}
	out := LintOutput{Summary: summary(files)}
	out.Findings, out.More = findings(files)
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: textReport(files, 0)}}}, out, nil
}

// FixInput is the fix tool's input.
type FixInput struct {
	Source
	Selection
	UnsafeFixes bool `json:"unsafeFixes,omitempty" jsonschema:"Also apply the fixes that change a tool's contract (what it accepts), such as widening a type; review them."`
}

// FixOutput is the fix tool's structured result.
type FixOutput struct {
	// Fixed is the fixed tool list.
	Fixed string `json:"fixed" jsonschema:"The tool list with the fixes applied, in its own format and layout (empty when cut: see cut). Characters a terminal would act on are written as JSON escapes of the same character."`
	Diff  string `json:"diff" jsonschema:"A unified diff from the input to the fixed list (git apply takes it when the input was a file); empty when nothing changed."`
	// Applied counts the fixes applied.
	Applied int `json:"applied" jsonschema:"The fixes applied."`
	// Cut is set when the fixed list or the diff passed MaxText.
	Cut       bool      `json:"cut" jsonschema:"The fixed list or the diff was too long to return whole; run mcplint fix -w PATH instead."`
	Remaining Summary   `json:"remaining" jsonschema:"What the fixed list still has."`
	Findings  []Finding `json:"findings" jsonschema:"The findings that remain (at most 200)."`
	More      int       `json:"more" jsonschema:"Remaining findings left out of findings."`
}

func (h *handlers) fix(ctx context.Context, _ *mcp.CallToolRequest, in FixInput) (*mcp.CallToolResult, FixOutput, error) {
	m, err := h.load(in.Source)
	if err != nil {
		return errorResult(err), FixOutput{}, nil
	}
	cfg := in.config()
	cfg.UnsafeFixes = in.UnsafeFixes
	l, err := h.linter(cfg)
	if err != nil {
		return errorResult(err), FixOutput{}, nil
	}
	if err := ctx.Err(); err != nil {
		return errorResult(err), FixOutput{}, nil
	}
	res, err := l.Fix(m)
	if err != nil {
		return errorResult(err), FixOutput{}, nil
	}
	out := FixOutput{Applied: res.Applied}
	fixed := document(res.Src, m.Format == manifest.JSON)
	diff, err := report.Diff(m.Path, m.Src, res.Src)
	if err != nil {
		return errorResult(err), FixOutput{}, nil
	}
	diff = guardLines(diff)
	if len(fixed) > MaxText || len(diff) > MaxText {
		out.Cut = true
		fixed = ""
		diff = clip(diff)
	}
	out.Fixed, out.Diff = fixed, diff
	files := []report.File{{Manifest: res.Manifest, Diagnostics: res.Remaining}}
	out.Remaining = summary(files)
	out.Findings, out.More = findings(files)
	var text strings.Builder
	switch {
	case res.Applied == 0:
		text.WriteString("No fix applies.\n\n")
	case out.Cut:
		fmt.Fprintf(&text, "%d fixes applied; the result is too long to return: run `mcplint fix -w` on the file, or `mcplint fix --diff`.\n\n", res.Applied)
	default:
		fmt.Fprintf(&text, "%d fixes applied:\n\n%s\n", res.Applied, diff)
	}
	text.WriteString(textReport(files, res.Fixed))
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: clip(text.String())}}}, out, nil
}

// document is a fixed or converted document as a result carries it: a
// JSON document through guard's JSON writer, which spells what a terminal
// or CI runner acts on with JSON escapes of the same characters, so that
// it still reads as the same values; other text through the text guard,
// line feeds and tabs kept.
func document(src []byte, isJSON bool) string {
	var b bytes.Buffer
	var w *guard.Writer
	if isJSON {
		w = guard.NewJSONWriter(&b)
	} else {
		w = guard.NewWriter(&b, false)
	}
	_, _ = w.Write(src)
	_ = w.Flush()
	return b.String()
}

// guardLines is a text of several lines with its layout (line feeds,
// tabs) kept and the rest guarded.
func guardLines(s string) string { return document([]byte(s), false) }

// ConvertInput is the convert tool's input.
type ConvertInput struct {
	Source
	To     string `json:"to" jsonschema:"The format to write: mcp, openai, anthropic, gemini or zod."`
	API    string `json:"api,omitempty" jsonschema:"For openai: chat (Chat Completions, the default) or responses."`
	Strict bool   `json:"strict,omitempty" jsonschema:"For openai: strict mode (Structured Outputs)."`
	// GeminiJSONSchema writes parametersJsonSchema.
	GeminiJSONSchema bool `json:"geminiJsonSchema,omitempty" jsonschema:"For gemini: write parametersJsonSchema (full JSON Schema, as Gemini CLI sends) instead of parameters (the OpenAPI subset)."`
}

// ConvertOutput is the convert tool's structured result.
type ConvertOutput struct {
	Document string `json:"document" jsonschema:"The converted tools (empty when cut: see cut)."`
	Cut      bool   `json:"cut" jsonschema:"The document was too long to return; run mcplint convert instead."`
	// Warnings are what the target could not carry.
	Warnings []string `json:"warnings" jsonschema:"What the target could not carry, or still refuses (at most 200)."`
	Refused  bool     `json:"refused" jsonschema:"The target still refuses something in the document (a warning says what)."`
}

func (h *handlers) convert(_ context.Context, _ *mcp.CallToolRequest, in ConvertInput) (*mcp.CallToolResult, ConvertOutput, error) {
	if !slices.Contains(convert.Targets, in.To) {
		return errorResult(fmt.Errorf("to: %q is not a format (want %s)", in.To, strings.Join(convert.Targets, ", "))), ConvertOutput{}, nil
	}
	m, err := h.load(in.Source)
	if err != nil {
		return errorResult(err), ConvertOutput{}, nil
	}
	tools, err := convert.FromManifest(m)
	if err != nil {
		return errorResult(err), ConvertOutput{}, nil
	}
	doc, warns, err := convert.To(in.To, tools, convert.Options{API: in.API, Strict: in.Strict, GeminiJSONSchema: in.GeminiJSONSchema})
	if err != nil {
		var te *convert.ToolError
		if errors.As(err, &te) {
			err = fmt.Errorf("tool %d %s: %w", te.Index, te.Pointer, err)
		}
		return errorResult(err), ConvertOutput{}, nil
	}
	out := ConvertOutput{Warnings: []string{}}
	out.Document = document(doc, in.To != "zod")
	if len(out.Document) > MaxText {
		out.Document, out.Cut = "", true
	}
	var text strings.Builder
	for _, w := range warns {
		out.Refused = out.Refused || w.Refused
		// Warning.String is the command line's wording: a summary said
		// once for many tools, a long name or pointer bounded.
		line := guard.Log(w.String())
		if w.Refused {
			line = "refused: " + line
		}
		if len(out.Warnings) < MaxFindings {
			out.Warnings = append(out.Warnings, line)
		}
		text.WriteString(line + "\n")
	}
	if out.Cut {
		text.WriteString("The document is too long to return: run `mcplint convert` on the file.\n")
	} else {
		text.WriteString("\n" + out.Document)
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: clip(text.String())}}}, out, nil
}

// ExplainInput is the explain_rule tool's input.
type ExplainInput struct {
	Rule string `json:"rule,omitempty" jsonschema:"The rule's ID, as findings name it (input-schema-root-object); empty to list every rule."`
}

// ExplainOutput is the explain_rule tool's structured result.
type ExplainOutput struct {
	Rule     string `json:"rule" jsonschema:"The rule's ID; empty for the list."`
	Markdown string `json:"markdown" jsonschema:"The documentation, in Markdown."`
}

func (h *handlers) explain(_ context.Context, _ *mcp.CallToolRequest, in ExplainInput) (*mcp.CallToolResult, ExplainOutput, error) {
	if in.Rule == "" {
		var b strings.Builder
		b.WriteString("| Rule | Severity | Summary |\n| --- | --- | --- |\n")
		for _, r := range h.o.Catalogue {
			fmt.Fprintf(&b, "| %s | %s | %s |\n", r.ID, r.Severity, strings.ReplaceAll(r.Summary, "|", `\|`))
		}
		md := clip(b.String())
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: md}}}, ExplainOutput{Markdown: md}, nil
	}
	for _, r := range h.o.Catalogue {
		if r.ID == in.Rule {
			md := clip(report.RuleMarkdown(r, 1, h.o.Catalogue))
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: md}}}, ExplainOutput{Rule: r.ID, Markdown: md}, nil
		}
	}
	// A typo gets the one rule the command line would suggest; a part of
	// an ID ("strict"), or a text holding one, the rules that match.
	ids := make([]string, len(h.o.Catalogue))
	for i, r := range h.o.Catalogue {
		ids[i] = r.ID
	}
	var near []string
	if s := lint.Closest(in.Rule, ids); s != "" {
		near = []string{s}
	} else if in.Rule != "" {
		for _, id := range ids {
			if strings.Contains(id, in.Rule) || strings.Contains(in.Rule, id) {
				near = append(near, id)
			}
		}
	}
	msg := fmt.Sprintf("no rule %q", in.Rule)
	if len(near) > 0 {
		msg += "; did you mean " + strings.Join(near[:min(len(near), 5)], ", ") + "?"
	}
	return errorResult(errors.New(msg + " (explain_rule with no rule lists them all)")), ExplainOutput{}, nil
}
