// Package mcpserver is mcplint as an MCP server (`mcplint mcp`), so that an
// agent writing an MCP server (in Claude Code, Cursor, VS Code, …) can lint
// and fix the server's tool definitions in the conversation. It serves over
// any go-sdk transport; the command runs it over stdio.
//
// Tools:
//
//   - lint: the findings of a tool list, given as text or as a file of the
//     workspace, with a summary and what the definitions cost in a model's
//     context (package tokens);
//   - fix: the list with mcplint's safe (or also unsafe) fixes applied, a
//     unified diff, and what remains; nothing is written;
//   - convert: the list for OpenAI, Anthropic, Gemini, Zod or MCP, with what
//     the target could not carry;
//   - explain_rule: a rule's documentation;
//   - check: list and lint a running server, offered only when the server
//     was started with Options.AllowCheck (`mcplint mcp --allow-check`),
//     because checking a server means running the command the agent gives
//     (or connecting to the URL it gives): the same power as a shell, which
//     a user grants knowingly, not as a side effect of linting.
//
// Resources: every rule's documentation (mcplint://rules/ID, Markdown) and
// the consumer matrix (mcplint://consumers): which clients refuse what,
// with sources.
//
// The workspace is a folder (the current one for the command): paths are
// read through an os.Root opened on it, so that no path, "..", absolute
// path or symbolic link reads a file outside it.
//
// Every result is a stranger's input turned into text (the tool list's
// names, descriptions and schemas, a server's answers), bound for an agent
// and, in clients such as Claude Code, a terminal. So every text passes
// package guard (the text report a guard.Writer, each structured string
// guard.Log: nothing a terminal or a CI runner acts on), a fixed or
// converted JSON document guard.NewJSONWriter, which
// writes what a terminal or CI runner would act on as JSON escapes of the
// same value), and every result is bounded: the report and each document
// are cut at MaxText bytes, saying so, and structured findings at
// MaxFindings. The inputs are bounded by the manifest limits (Options.Limits).
package mcpserver
