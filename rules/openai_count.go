package rules

import (
	"github.com/mcpfit/mcplint/consumer"
	"github.com/mcpfit/mcplint/lint"
)

var openaiCountRules = []*lint.Rule{OpenAIToolCount}

// OpenAIToolCount checks the number of tools against the 128 functions an
// OpenAI request may carry.
var OpenAIToolCount = &lint.Rule{
	ID:       "openai-tool-count",
	Packs:    []string{"openai"},
	Subject:  "tool-count",
	Severity: lint.Warning,
	Consumers: openaiModes("tools", "Invalid 'tools': array too long. Expected an array with maximum length 128, but got an array with length 133 instead.",
		"OpenAI API reference, Chat Completions, tools (\"A max of 128 functions are supported\"); Upsonic/Upsonic#176",
		"OpenAI API reference, Responses, tools; anomalyco/opencode#4909",
		"OpenAI API reference, tools"),
	Summary:     "the server offers at most 128 tools, the most an OpenAI request may carry",
	Fix:         lint.NoFix,
	Options:     map[string]any{"max-tools": toolLimit(consumer.OpenAIResponses).Max},
	CheckOption: nonNegative,
	CheckList:   checkOpenAIToolCount,
	Doc: `OpenAI's APIs take at most 128 functions in a request's "tools" ("A max of
128 functions are supported", in the API reference of Chat Completions and
of Responses). A client that gives the model every tool of its servers (the
OpenAI Agents SDK, Codex, LangChain, Zed, opencode) fails every request once
the servers together offer more, with HTTP 400:

    Invalid 'tools': array too long. Expected an array with maximum length
    128, but got an array with length 133 instead. (code array_above_max_length)

A server that alone offers more than 128 tools cannot be used whole by any
of them. mcplint check --discover adds up the tools of the servers Codex
loads, as Codex sends them together.

Option "max-tools" (default 128) is the limit; lower it to leave room for
the client's own tools and other servers.

There is no fix: split the server, or let users enable groups of tools.

Source: OpenAI API reference, Chat Completions "tools" and Responses
"tools" (https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools);
the error as clients meet it: Upsonic/Upsonic#176, vishalmysore/Tools4AI#16,
zed-industries/zed#32946, anomalyco/opencode#4909.`,
}

func checkOpenAIToolCount(p *lint.ListPass) {
	checkToolCount(p, p.Option("max-tools").(int), "OpenAI's APIs take at most %d functions in a request (option max-tools) and refuse the whole request with more; this server alone offers %d: offer fewer tools or let users enable groups of them")
}

// ToolCaps are the rules that cap the tools a client takes from all its
// servers together, by the consumer each protects: check --discover
// applies each to the tools of the servers its client loads, added up.
var ToolCaps = map[consumer.ID]*lint.Rule{
	consumer.Cursor:           CursorToolCount,
	consumer.VSCode:           VSCodeToolCount,
	consumer.OpenAIResponses:  OpenAIToolCount,
	consumer.GeminiJSONSchema: GeminiToolCount,
}
