// Package rules is the catalogue: every rule mcplint knows, as plain values
// registered in one list (All). Each file holds one family of rules; the
// rules' docs are their documentation (`mcplint rules ID`).
//
// Packs: "mcp" (on by default) enforces what the MCP specification demands
// of a tool for the protocol version checked against; "robust" (on by
// default, warnings) catches schemas that are valid but fail in practice;
// "security" (off by default, for lint and check alike; SecurityPack) catches tools that
// attack the model or the user; "openai" (off by default) catches what
// OpenAI's function calling refuses, strict or not; "openai-strict" (off by
// default, turned on by --strict) adds what its strict mode (Structured
// Outputs) refuses, and includes the "openai" rules; "claude" (off by
// default) catches what the Anthropic API and Claude Code refuse; "cursor"
// (off by default) catches the limits Cursor puts on names and tool counts;
// "vscode" (off by default) catches what VS Code's chat rewrites or
// refuses; "gemini" (off by default) catches what Gemini's function
// declarations refuse in their classic "parameters" field (an OpenAPI 3.0
// subset); "breaking" and "non-breaking" (run by
// `mcplint breaking` only, package breaking) classify the changes between
// two versions of a list.
package rules

import (
	"slices"

	"github.com/mcpfit/mcplint/breaking"
	"github.com/mcpfit/mcplint/consumer"
	"github.com/mcpfit/mcplint/lint"
)

// All is the catalogue, in the order `mcplint rules` lists it.
var All = concat(
	rootRules,
	validityRules,
	namingRules,
	headerRules,
	metaRules,
	toolFieldRules,
	zodRules,
	complexityRules,
	robustRules,
	liveRules,
	surfaceRules,
	securityRules,
	openaiRules, openaiCountRules, openaiStrictRules,
	claudeRules, cursorRules, vscodeRules,
	geminiRules,
	breaking.Rules,
)

func concat(families ...[]*lint.Rule) []*lint.Rule {
	var out []*lint.Rule
	for _, f := range families {
		out = append(out, f...)
	}
	return out
}

// ByID finds a rule of the catalogue.
func ByID(id string) *lint.Rule {
	for _, r := range All {
		if r.ID == id {
			return r
		}
	}
	return nil
}

// consumersOf picks, from the consumers the pass's rule protects, those a
// particular finding concerns: a rule whose findings differ in who refuses
// them reports each with its own.
func consumersOf(p *lint.Pass, ids ...consumer.ID) []consumer.Refusal {
	var out []consumer.Refusal
	for _, r := range p.Rule.Consumers {
		if slices.Contains(ids, r.Consumer) {
			out = append(out, r)
		}
	}
	return out
}

// consumersWith picks, from the consumers the pass's rule protects, those
// whose refusal reports the profile line with the ID.
func consumersWith(p *lint.Pass, line string) []consumer.Refusal {
	var out []consumer.Refusal
	for _, r := range p.Rule.Consumers {
		if r.Line == line {
			out = append(out, r)
		}
	}
	return out
}

// openaiModes are the refusals of a profile line that OpenAI's three modes
// share (the line has the same ID in each profile): Chat Completions',
// Responses' and strict mode's, each with its source (the last given serves
// the rest). The error, quoted from the non-strict APIs, goes with those.
func openaiModes(line, errText string, sources ...string) []consumer.Refusal {
	modes := []consumer.ID{consumer.OpenAIChat, consumer.OpenAIResponses, consumer.OpenAIStrict}
	out := make([]consumer.Refusal, len(modes))
	for i, id := range modes {
		src := sources[min(i, len(sources)-1)]
		out[i] = consumer.Refusal{Consumer: id, Line: line, Source: src}
		if id != consumer.OpenAIStrict {
			out[i].Error = errText
		}
	}
	return out
}
