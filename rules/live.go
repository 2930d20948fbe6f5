package rules

import (
	"github.com/mcpfit/mcplint/consumer"
	"github.com/mcpfit/mcplint/lint"
)

// liveRules concern what a running server does, not what a file says: they
// have no Check of their own, and only `mcplint check` (package live, which
// talks to the server) runs them. They are part of the catalogue so that
// selection, severity overrides and `mcplint rules` treat them like any
// other.
var liveRules = []*lint.Rule{ListResultValid, ListOrderStable, StdioStdoutClean}

// ListResultValid checks the tools/list result itself, page by page.
var ListResultValid = &lint.Rule{
	ID:       "list-result-valid",
	Packs:    []string{"mcp"},
	Severity: lint.Error,
	Consumers: []consumer.Refusal{
		{Consumer: consumer.MCPSpec, Line: "results", Source: "MCP schema.json, ListToolsResult of each version"},
		{Consumer: consumer.TSSDK, Line: "results", Source: "ListToolsResultSchema of the TypeScript SDK"},
	},
	Summary: "each tools/list result is a ListToolsResult of the negotiated protocol version",
	Fix:     lint.NoFix,
	Doc: `Run by ` + "`mcplint check`" + ` only: it needs the server's actual answer.

Every page a server returns for tools/list must be a ListToolsResult of the
protocol version the session negotiated: an object with a "tools" array of
tool objects, and, when there are more pages, a string "nextCursor". From
protocol 2026-07-28, results are cacheable and typed: "resultType" (a
string, "complete" for a tool list), "ttlMs" (a non-negative integer: how
long the client may cache the list) and "cacheScope" ("public" or
"private") are required. A client of that version that finds them missing
cannot cache the list, and a strict one refuses the result.

A result that is not a tool list at all (no "tools" array) makes the check
fail (exit status 3) naming this rule, since there is nothing to lint.

Bad (negotiated 2026-07-28):

    {"tools": [{"name": "search", "inputSchema": {"type": "object"}}]}

Good:

    {"tools": [{"name": "search", "inputSchema": {"type": "object"}}],
     "resultType": "complete", "ttlMs": 60000, "cacheScope": "public"}

Source: MCP specification 2026-07-28, schema.json "ListToolsResult",
"CacheableResult" and "Result" (required "resultType", "ttlMs",
"cacheScope"); server/utilities/pagination for "nextCursor".`,
}

// ListOrderStable compares two listings of the same session.
var ListOrderStable = &lint.Rule{
	ID:       "list-order-stable",
	Packs:    []string{"mcp"},
	Severity: lint.Warning, Harm: lint.Risks,
	Summary: "two tools/list calls return the same tools in the same order",
	Fix:     lint.NoFix,
	Doc: `Run by ` + "`mcplint check`" + ` only: it lists the tools twice.

The 2026-07-28 specification asks servers to return tools in a
deterministic order, the same across calls, so that clients can cache the
list and language-model providers can reuse their prompt cache (a tool list
is part of every prompt; a reordered list is a cache miss on every turn).
Servers that build the list from a Go map or a hash set return a different
order at random.

Bad: a first call lists "search, fetch, open" and a second "fetch, open,
search".

Good: sort the tools (by name, or in registration order) before returning
them.

Source: MCP specification 2026-07-28, server/tools, "Listing Tools"
("Servers SHOULD return tools in a deterministic order"), and its changelog.`,
}

// StdioStdoutClean reports what a stdio server printed that is not
// protocol.
var StdioStdoutClean = &lint.Rule{
	ID:       "stdio-stdout-clean",
	Packs:    []string{"mcp"},
	Severity: lint.Error,
	Consumers: []consumer.Refusal{
		{Consumer: consumer.MCPSpec, Line: "stdio", Source: "MCP specification, basic/transports, \"stdio\""},
	},
	Summary: "a stdio server writes nothing but JSON-RPC messages on stdout",
	Fix:     lint.NoFix,
	Doc: `Run by ` + "`mcplint check`" + ` only, on stdio servers.

Over stdio, the server's standard output is the protocol stream. A log
line, a banner or a stray print there is read by the client as a malformed
message: strict clients drop the connection, others log parse errors or
lose the message that shared the line. mcplint skips such lines to finish
its check and reports them; a server that writes only such text fails the
check.

Bad (on stdout):

    Server listening...
    {"jsonrpc":"2.0","id":1,"result":{...}}

Good: write logs to standard error (console.error, log.SetOutput(os.Stderr),
logging.basicConfig(stream=sys.stderr)); stdout carries only JSON-RPC.

Source: MCP specification 2025-06-18, basic/transports, "stdio", and
2026-07-28, stdio ("The server MUST NOT write anything to its stdout that is
not a valid MCP message").`,
}
