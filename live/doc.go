// Package live talks to a running MCP server as a real client (the official
// Go SDK, github.com/modelcontextprotocol/go-sdk) and returns what it
// publishes (its tools, prompts, resources, resource templates and
// handshake result), as the bytes it sent: a stdio server started from a
// command, a Streamable HTTP endpoint, or a legacy HTTP+SSE one, or any SDK
// transport (the in-memory one in tests).
//
// The SDK negotiates the protocol (server/discover for 2026-07-28 and later,
// the initialize handshake before) and issues tools/list; the raw result of
// each page is taken from the SDK's Connection before the SDK decodes it,
// because ClientSession.ListTools drops tools it finds invalid and decodes
// schemas into maps, losing order and number spelling. Then prompts/list,
// resources/list and resources/templates/list are read the same way, and
// the handshake result is kept (surface.go). The pages become an NDJSON
// stream of JSON-RPC responses that manifest.Load reads, so findings point
// into the bytes the server sent and Listing.Src can be saved as a
// manifest.
//
// It also owns what only a live server can break (the rules
// list-result-valid, list-order-stable and stdio-stdout-clean: see Check),
// the failures of a conversation (Error, with a Kind), the hygiene of child
// processes (each stdio server runs in its own process group, killed on every
// exit path), and the reading of MCP client configuration files (ReadClientConfig).
package live
