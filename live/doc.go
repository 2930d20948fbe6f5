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
// the handshake result is kept (surface.go). Only the lists the handshake
// result declares a capability for are asked for, as clients do; a declared
// list the server refuses is kept as its error response. The pages become
// an NDJSON stream of JSON-RPC responses that manifest.Load reads, so
// findings point into the bytes the server sent and Listing.Src can be
// saved as a manifest.
//
// A server that negotiates 2026-07-28 is listed once more as the clients of
// the initialize era (2025-11-25 and older) see it (Listing.Legacy): over a
// new connection of the same transport, a stdio server's sessions sharing
// its process (sessions.go) unless it refuses, when a process of its own is
// started: the TypeScript and Go SDKs' servers fix their era for the
// process, as the specification lets them. Check lints every era and names in each finding the eras it was
// seen in.
//
// It also owns what only a live server can break (the rules
// list-result-valid, list-order-stable and stdio-stdout-clean: see Check),
// checking several servers at once (CheckAll, whose timeout bounds each
// server's whole check, linting included, and its clean-up within Grace
// past it), the failures of a conversation
// (Error, with a Kind), the reading of MCP client configuration files
// (ReadClientConfig), and three defences against a hostile server:
//   - Limits: a message is never buffered past its size limit (a stdio line
//     is refused as it passes it, an HTTP body or event is cut there), and a
//     listing stops at a size, a number of tools and a number of pages;
//   - secrets: a failure's message, the server's own words included, is
//     redacted with Target.Secrets (package redact);
//   - processes: each stdio server runs in its own process group; when it
//     stops, the group and every descendant are killed, a grandchild that
//     started its own session included. On Linux the kernel kills the server
//     if this process dies (a parent-death signal), and AdoptOrphans and
//     KillOrphans catch the processes a server leaves behind by exiting
//     early (a daemon that forks twice). Other systems get the process group.
package live
