package consumer

// The profiles of MCP itself and of the clients built on it. None of them
// documents a keyword list: MCP takes any JSON Schema, and the clients take
// what they parse, so each is a denylist of what they are known to refuse
// or alter.

var mcpSpecProfile = &Profile{
	Consumer: MCPSpec,
	Basis:    "the specification takes any JSON Schema as inputSchema and outputSchema (basic, \"JSON Schema Usage\"; 2020-12 when \"$schema\" is absent, from 2025-11-25); the lines are its MUST and SHOULD rules and schema.json's shapes",
	Lines: []Line{
		{ID: "name", Kind: Name, Chars: "A-Za-z0-9_.-", Max: 128, Action: Discourages,
			Text: "tool names SHOULD be 1 to 128 of A-Z a-z 0-9 _ - .", Source: "MCP specification 2025-11-25 and 2026-07-28, server/tools, \"Tool Names\""},
		{ID: "name-present", Kind: Check, Text: "every tool has a string name", Source: "MCP schema.json, Tool (name: string, required), every version"},
		{ID: "unique-names", Kind: Check, Text: "tool names are unique within a server", Source: "MCP specification, server/tools, \"Tool\""},
		{ID: "input-root", Kind: Check, Text: "inputSchema has \"type\": \"object\" at its root", Source: "MCP schema.json, Tool.inputSchema, every version"},
		{ID: "output-root", Kind: Check, Text: "before 2026-07-28, outputSchema has \"type\": \"object\" at its root", Source: "MCP schema.json 2025-06-18 and 2025-11-25, Tool.outputSchema"},
		{ID: "root-properties", Kind: Check, Text: "the root \"properties\" maps names to object schemas", Source: "MCP schema.json 2024-11-05 to 2025-11-25, Tool.inputSchema.properties"},
		{ID: "valid", Kind: Check, Text: "inputSchema and outputSchema are valid JSON Schema under their dialect", Source: "MCP specification 2025-11-25, basic, \"JSON Schema Usage\""},
		{ID: "references", Kind: Check, Text: "references resolve inside the schema, never over the network", Source: "MCP specification 2026-07-28, basic, \"JSON Schema Usage\""},
		{ID: "x-mcp-header", Kind: Check, Action: DropsTool, Text: "x-mcp-header names a valid, unique header on a string, integer or boolean property", Source: "MCP specification 2026-07-28, server/tools, \"x-mcp-header\" (clients drop the tool)"},
		{ID: "meta", Kind: Check, Text: "_meta keys follow the key format and keep out of reserved prefixes", Source: "MCP schema.json, _meta; specification 2025-06-18, basic, \"General fields\""},
		{ID: "tool-fields", Kind: Check, Text: "title, description, annotations (a title, boolean hints), icons (a string src; mimeType, sizes, theme light or dark) and execution (taskSupport forbidden, optional or required) have their types",
			Source: "MCP schema.json 2025-11-25 and 2026-07-28, Tool, ToolAnnotations, Icon, ToolExecution (annotations since 2025-03-26, title since 2025-06-18)"},
		{ID: "json-schema", Kind: Check, Text: "schemas are JSON Schema, not a serialised Zod schema", Source: "MCP schema.json, Tool.inputSchema"},
		{ID: "results", Kind: Check, Text: "every result is valid for the negotiated protocol version", Source: "MCP schema.json of each version"},
		{ID: "stdio", Kind: Check, Text: "a stdio server writes only JSON-RPC messages on stdout", Source: "MCP specification, basic/transports, \"stdio\""},
		{ID: "uris", Kind: Check, Action: Discourages, Text: "resource URIs are absolute URIs (format uri, an annotation clients need not check)", Source: "MCP schema.json, Resource.uri"},
		{ID: "uri-templates", Kind: Check, Text: "resource templates are RFC 6570 URI templates", Source: "MCP schema.json, ResourceTemplate.uriTemplate"},
		{ID: "surface-names", Kind: Check, Text: "prompt names, resource URIs and templates are unique", Source: "MCP specification, server/prompts and server/resources"},
		{ID: "capabilities", Kind: Check, Text: "the server declares the capabilities of what it serves", Source: "MCP specification, server/tools, server/prompts, server/resources: \"Capabilities\""},
	},
}

var tsSDKProfile = &Profile{
	Consumer: TSSDK,
	Basis:    "the SDK parses tools/list with zod (src/types.ts, ToolSchema) and passes the schemas on as they are: it checks shapes, not keywords",
	Lines: []Line{
		{ID: "input-root", Kind: Check, Text: "inputSchema.type is the literal \"object\"", Error: "Invalid input: expected \"object\"", Source: "anthropics/claude-code#8014"},
		{ID: "output-root", Kind: Check, Text: "outputSchema.type is the literal \"object\"", Error: "Invalid literal value, expected \"object\"", Source: "anthropics/claude-code#8014"},
		{ID: "root-properties", Kind: Check, Text: "the root \"properties\" is an object of objects", Source: "anthropics/claude-code#82949 and #92900"},
		{ID: "meta", Kind: Check, Text: "_meta is an object", Source: "modelcontextprotocol/typescript-sdk src/types.ts"},
		{ID: "tool-fields", Kind: Check, Text: "title and description are strings, annotations' hints booleans, every icon has a string src, execution.taskSupport is forbidden, optional or required, whatever version was negotiated",
			Error: "Invalid input: expected boolean, received string", Source: "modelcontextprotocol/typescript-sdk src/types.ts, ToolSchema: BaseMetadataSchema, ToolAnnotationsSchema, IconSchema, ToolExecutionSchema (v1.32.2)"},
		{ID: "json-schema", Kind: Check, Text: "schemas are JSON Schema objects, not a serialised Zod schema", Source: "anthropics/claude-code#8014"},
		{ID: "results", Kind: Check, Text: "every result parses with the zod schema of its type", Source: "modelcontextprotocol/typescript-sdk src/types.ts"},
	},
}

var anthropicProfile = &Profile{
	Consumer: Anthropic,
	Basis:    "the Messages API takes input_schema as JSON Schema 2020-12 (tool use guide) and documents no keyword list; the lines are what its errors show",
	Lines: []Line{
		{ID: "name", Kind: Name, Chars: "a-zA-Z0-9_-", Max: 128, Text: "the tool name is ^[a-zA-Z0-9_-]{1,128}$",
			Error: "String should match pattern '^[a-zA-Z0-9_-]{1,128}$'", Source: "home-assistant/core#147760; anthropics/claude-code#16425 (128)"},
		{ID: "root-combinators", Kind: Keywords, Refuse: true, At: Root, Keywords: []string{"oneOf", "allOf", "anyOf"},
			Text: "no oneOf, allOf or anyOf at the top level", Error: "input_schema does not support oneOf, allOf, or anyOf at the top level",
			Source: "nspady/google-calendar-mcp#39, anthropics/claude-code#4886"},
		{ID: "draft-2020-12", Kind: Check, Text: "input_schema is valid JSON Schema 2020-12, whatever dialect it declares",
			Error: "JSON schema is invalid. It must match JSON Schema draft 2020-12", Source: "anthropics/claude-code#586"},
	},
}

var claudeCodeProfile = &Profile{
	Consumer: ClaudeCode,
	Basis:    "Claude Code lists tools with the TypeScript SDK and sends them to the Anthropic API (Uses); the lines are its own",
	Lines: []Line{
		{ID: "prefixed-name", Kind: Check, Text: "mcp__<server>__<tool> has at most 64 characters (tool search refers to it)",
			Error: "tool_reference.tool_name: String should have at most 64 characters", Source: "anthropics/claude-code#20830"},
		{ID: "output-dialect", Kind: Check, Action: DropsTool, Text: "outputSchema declares no dialect but 2020-12",
			Error: "The default validator supports JSON Schema 2020-12 only", Source: "anthropics/claude-code#88882"},
		{ID: "references", Kind: Check, Text: "every \"$ref\" resolves", Error: "can't resolve reference #/$defs/ScreenInstance from id #", Source: "anthropics/claude-code#76881"},
		{ID: "prompt-names", Kind: Check, Action: Rewrites, Text: "prompt names become slash commands", Source: "https://code.claude.com/docs/en/mcp, \"Use MCP prompts as commands\""},
	},
}

var claudeAIProfile = &Profile{
	Consumer: ClaudeAI,
	Basis:    "claude.ai's connectors send tools to the Anthropic API (Uses); the lines are their own",
	Lines: []Line{
		{ID: "name-length", Kind: Check, Text: "the tool name has at most 64 characters",
			Error: "tools.13.FrontendRemoteMcpToolDefinition.name: String should have at most 64 characters", Source: "mims-harvard/ToolUniverse#3"},
		{ID: "output-dialect", Kind: Check, Action: DropsTool, Text: "outputSchema declares no dialect but 2020-12",
			Error: "The default validator supports JSON Schema 2020-12 only", Source: "ankimcp/anki-mcp-server-addon#75"},
	},
}

// vscodeNormalizer is Copilot Chat's schema normalizer, which every tool
// passes before a request.
const vscodeNormalizer = "microsoft/vscode-copilot-chat src/extension/tools/common/toolSchemaNormalizer.ts"

var vscodeProfile = &Profile{
	Consumer: VSCode,
	Basis:    "Copilot Chat documents no keyword list; its schema normalizer (" + vscodeNormalizer + ") validates, rewrites and drops what the models it serves refuse",
	Lines: []Line{
		{ID: "name", Kind: Name, Chars: "a-zA-Z0-9_-", Action: Rewrites, Text: "tool names are A-Z a-z 0-9 _ -; other characters become _",
			Error: "Tools names may only contain [a-z0-9_-]", Source: "microsoft/vscode#308463 (toolInvalidCharRe)"},
		{ID: "tools", Kind: Limit, Measure: "tools", Max: 128, Text: "a chat request carries at most 128 tools",
			Error: "You may not include more than 128 tools in your request.", Source: "microsoft/vscode-copilot-release#9375"},
		{ID: "valid", Kind: Check, Text: "the parameters are valid under the draft-07 meta-schema", Error: "tool parameters do not match JSON schema", Source: vscodeNormalizer},
		{ID: "array-items", Kind: Requires, Type: "array", Keywords: []string{"items"}, NotFalse: true, Text: "every array schema has \"items\" (not false)",
			Error: "tool parameters array type must have items", Source: vscodeNormalizer + "; modelscope/ReMe#84"},
		{ID: "root-combinators", Kind: Keywords, Refuse: true, At: Root, Action: DropsKeyword, Keywords: []string{"oneOf", "anyOf", "allOf", "not", "if", "then", "else"},
			Text: "top-level combinators and conditionals are deleted", Error: "object has unsupported top-level schema keyword", Source: vscodeNormalizer},
		{ID: "undeclared-required", Kind: Check, Action: Rewrites, Text: "names in \"required\" that \"properties\" lacks are deleted",
			Error: "object has required property that is not defined", Source: vscodeNormalizer},
		{ID: "gpt-4-keywords", Kind: Keywords, Refuse: true, Action: DropsKeyword,
			Keywords: []string{"minLength", "maxLength", "pattern", "default", "format", "minimum", "maximum", "multipleOf", "patternProperties", "unevaluatedProperties", "propertyNames",
				"minProperties", "maxProperties", "unevaluatedItems", "contains", "minContains", "maxContains", "minItems", "maxItems", "uniqueItems"},
			Text: "for GPT-4 models, these keywords are deleted (not reported: the model family is the user's choice)", Source: vscodeNormalizer + " (gpt4oUnsupportedSchemaKeywords)"},
		{ID: "prompt-names", Kind: Check, Action: Rewrites, Text: "prompt names become slash commands", Source: "https://code.visualstudio.com/docs/copilot/customization/mcp-servers, \"Use MCP prompts\""},
	},
}

var cursorProfile = &Profile{
	Consumer: Cursor,
	Basis:    "Cursor lists tools with the TypeScript SDK (Uses) and documents no keyword list; the lines are its limits",
	Lines: []Line{
		{ID: "combined-name", Kind: Check, Action: DropsTool, Text: "server name and tool name together stay under 60 characters",
			Error: "Combined server and tool name length (60) exceeds 60 characters", Source: "ComposioHQ/composio#2788"},
		{ID: "tools", Kind: Limit, Measure: "tools", Max: 80, Action: DropsTool, Text: "at most 80 tools from all servers reach the agent",
			Source: "Cursor documentation, \"Model Context Protocol\", \"Tool quantity\"; Snowflake-Labs/mcp#77"},
	},
}
