package rules

import (
	"github.com/mcpfit/mcplint/consumer"
	"github.com/mcpfit/mcplint/lint"
)

// geminiToolLimit is the profiles' bound on function declarations.
var geminiToolLimit = toolLimit(consumer.GeminiJSONSchema)

// GeminiToolCount checks the number of tools against the function
// declarations a Gemini request may carry.
var GeminiToolCount = &lint.Rule{
	ID:       "gemini-tool-count",
	Packs:    geminiPacks,
	Subject:  "tool-count",
	Severity: lint.Warning,
	Consumers: []consumer.Refusal{
		{Consumer: consumer.GeminiJSONSchema, Line: "tools", Error: geminiToolLimit.Error, Source: "google-gemini/gemini-cli#19083"},
		{Consumer: consumer.GeminiParameters, Line: "tools", Error: geminiToolLimit.Error, Source: "google-gemini/gemini-cli#19083"},
	},
	Summary:     "the server offers at most 512 tools, the most function declarations a Gemini request may carry",
	Fix:         lint.NoFix,
	Options:     map[string]any{"max-tools": geminiToolLimit.Max},
	CheckOption: nonNegative,
	CheckList:   checkGeminiToolCount,
	Doc: `Gemini takes at most 512 function declarations in a request. Gemini CLI
declares every tool of every MCP server it loads, and once they pass 512
every request fails with HTTP 400:

    The GenerateContentRequest proto is invalid:
      * tools[0].function_declarations: [FIELD_INVALID] At most 512 function
        declarations can be specified.

A server that alone offers more cannot be used whole by Gemini CLI or by any
client that gives Gemini every tool; mcplint check --discover adds up the
tools of the servers Gemini CLI loads. The Vertex AI and Firebase AI Logic
references document a lower bound, 64, which the API does not enforce; set
the option lower for a client that keeps to it.

Option "max-tools" (default 512) is the limit; lower it to leave room for the
client's own tools and other servers.

There is no fix: split the server, or let users enable groups of tools.

Source: the API's error in google-gemini/gemini-cli#19083 and #25440;
FunctionDeclarationsTool.functionDeclarations in the Firebase AI Logic
reference (https://firebase.google.com/docs/reference/js/ai.functiondeclarationstool).`,
}

func checkGeminiToolCount(p *lint.ListPass) {
	checkToolCount(p, p.Option("max-tools").(int), "Gemini takes at most %d function declarations in a request (option max-tools) and refuses the whole request with more; this server alone offers %d: offer fewer tools or let users enable groups of them")
}
