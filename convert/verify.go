package convert

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcpfit/mcplint/consumer"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/rules"
	"github.com/mcpfit/mcplint/schema"
)

// A conversion is checked, after it is written, by the rules that protect
// the target's consumers (lint.Rule.Consumers): what they still report is
// refused by the target, whatever the transforms did, and comes back as a
// Warning with Refused set, so that no caller takes the document for one
// the target accepts. The document itself is read back with the manifest
// loader, which reads every format To writes, so the rules judge exactly
// the bytes the caller receives.

// Consumers returns the consumers whose rules judge what To writes for
// target with o: none for "zod", whose output is source code.
func Consumers(target string, o Options) []consumer.ID {
	switch target {
	case "mcp":
		return []consumer.ID{consumer.MCPSpec, consumer.TSSDK}
	case "openai":
		api := consumer.OpenAIChat
		if o.API == "responses" {
			api = consumer.OpenAIResponses
		}
		if o.Strict {
			return []consumer.ID{api, consumer.OpenAIStrict}
		}
		return []consumer.ID{api}
	case "anthropic":
		return []consumer.ID{consumer.Anthropic}
	case "gemini":
		if o.GeminiJSONSchema {
			return []consumer.ID{consumer.GeminiJSONSchema}
		}
		return []consumer.ID{consumer.GeminiParameters}
	}
	return nil
}

// refuses reports whether r is a refusal (not a mere rewrite) by one of ids.
func refuses(r consumer.Refusal, ids []consumer.ID) bool {
	return !r.Mangles && slices.Contains(ids, r.Consumer)
}

// targetRules are the IDs of the rules that protect one of ids.
func targetRules(ids []consumer.ID) []string {
	var out []string
	for _, r := range rules.All {
		if slices.ContainsFunc(r.Consumers, func(f consumer.Refusal) bool { return refuses(f, ids) }) {
			out = append(out, r.ID)
		}
	}
	return out
}

// refusals reads back doc, written for the consumers ids from tools (one
// entry per tool, in order), and turns every error or warning of their
// rules into a refused Warning at the source tool. hint (nil for none)
// gives, for a finding and the output's value where it is, what the user
// can do about it ("" for nothing to add).
func refusals(doc []byte, ids []consumer.ID, tools []Tool, hint func(d lint.Diagnostic, at any) string) ([]Warning, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	l, err := lint.New(rules.All, lint.Config{Select: targetRules(ids)})
	if err != nil {
		return nil, fmt.Errorf("checking the output: %w", err)
	}
	// The output is this run's own, and may be larger than the input: the
	// size limit is its size, the other limits the defaults.
	m, err := manifest.Limits{Size: int64(len(doc)) + 1}.Load("output", doc)
	if err != nil {
		return nil, fmt.Errorf("the output does not read back: %w", err)
	}
	if len(m.Tools) != len(tools) {
		return nil, fmt.Errorf("the output reads back as %d tools, not %d", len(m.Tools), len(tools))
	}
	diags, err := l.Lint(m)
	if err != nil {
		return nil, fmt.Errorf("checking the output: %w", err)
	}
	var out []Warning
	for _, d := range diags {
		var by []consumer.Refusal
		for _, r := range d.Consumers {
			if refuses(r, ids) {
				by = append(by, r)
			}
		}
		if d.Severity < lint.Warning || len(by) == 0 {
			continue
		}
		t := tools[d.ToolIndex]
		ptr := sourcePointer(t, d.RelPointer)
		msg := fmt.Sprintf("refused by %s: %s", consumer.Names(by, false), d.Message)
		if ptr != d.RelPointer {
			msg += fmt.Sprintf(" (at %s in the output)", d.RelPointer)
		}
		if hint != nil {
			v, err := m.Tools[d.ToolIndex].Value()
			if err != nil {
				return nil, err
			}
			at, _ := schema.Get(v, d.RelPointer)
			if h := hint(d, at); h != "" {
				msg += "; " + h
			}
		}
		msg += " [" + strings.Join(append([]string{d.Rule}, d.Merged...), ", ") + "]"
		out = append(out, Warning{Tool: t.Name, Index: t.Index, Pointer: ptr, Message: msg, Refused: true})
	}
	return out, nil
}

// sourcePointer places a pointer of the output (relative to the tool, in
// MCP terms) in the source tool: the pointer itself when the source has
// it, otherwise its deepest ancestor that the source has (a transform may
// have moved or added what the output holds there), and at worst the tool.
func sourcePointer(t Tool, ptr string) string {
	src := map[string]any{"name": t.Name}
	for k, v := range t.Other {
		src[k] = v
	}
	for k, v := range map[string]any{"title": t.Title, "description": t.Description} {
		if v != "" {
			src[k] = v
		}
	}
	for k, v := range map[string]map[string]any{"inputSchema": t.InputSchema, "outputSchema": t.OutputSchema, "annotations": t.Annotations} {
		if v != nil {
			src[k] = v
		}
	}
	for p := ptr; p != ""; p = p[:strings.LastIndexByte(p, '/')] {
		if _, ok := schema.Get(src, p); ok {
			return p
		}
	}
	return ""
}
