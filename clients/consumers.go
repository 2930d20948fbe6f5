package clients

import "github.com/mcpfit/mcplint/consumer"

// clientConsumers are the consumers (package consumer) whose mode each
// client is, for the limits it puts on the servers it loads together.
var clientConsumers = map[string]consumer.ID{
	"Claude Code":      consumer.ClaudeCode,
	"Claude Desktop":   consumer.ClaudeAI,
	"Codex":            consumer.OpenAIResponses,
	"Cursor":           consumer.Cursor,
	"Gemini CLI":       consumer.GeminiJSONSchema,
	"VS Code":          consumer.VSCode,
	"VS Code Insiders": consumer.VSCode,
}

// Consumer is the consumer whose mode the client is (Codex sends tools to
// OpenAI's Responses API), "" for a client the matrix does not know
// (Windsurf).
func (c Config) Consumer() consumer.ID { return clientConsumers[c.Client] }
