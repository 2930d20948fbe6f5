// Package proxy runs between an MCP client and a server the user does not
// own, and repairs at runtime what the client in front of it refuses: it
// owns the relay (mcplint proxy), not the repairs, which are mcplint's own
// fixes (package lint, rules) and conversions (convert.Adapter).
//
// The relay is of JSON-RPC messages as bytes. A message is scanned only as
// far as its envelope (id, method, and where params, result and error
// lie); those that need no change are forwarded as they came, so ids, key
// order, spacing, number spellings and members of later protocol versions
// cross untouched, and the initialize and server/discover handshakes,
// prompts, resources, sampling, elicitation, roots, progress,
// cancellation, logging, ping, tasks and unknown methods pass both ways.
// Each message is handled as it comes: a listing being repaired or a call
// waiting for its tool to be learnt holds up no other. Four messages are
// rewritten:
//
//   - a tools/list result (each page; after notifications/tools/list_changed
//     the client lists again) gets the fixes of the client's rules (the
//     default selection and the client's pack; unsafe fixes only with
//     Options.UnsafeFixes), then the tools become what the client takes,
//     by convert.Adapter, the code of mcplint convert: names the client
//     refuses renamed with names that stay the same over pages and
//     listings and never collide, input schemas transformed for the
//     client's API. A tool no client can call (its input schema admits no
//     object) is left out. Output schemas get the fixes but no
//     transform: no model API reads them, and clients check results
//     against them, so narrowing one would refuse results the server
//     sends. What the client's rules still refuse is logged.
//   - a tools/call is sent under the server's name for the tool, and its
//     arguments are coerced against the server's own input schema (seed
//     001's server half, for any schema): where the schema refuses a value
//     for its type and an unambiguous form of a type it wants exists (a
//     decimal string for a number or integer, as coerce.Decimal defines
//     it; "true"/"false" for a boolean; a JSON text for an object or
//     array; a null for an argument that may be left out, which OpenAI's
//     strict mode makes the model send), the value is converted, and the arguments are sent converted
//     only when they then pass the whole schema. Otherwise they go as
//     sent, for the server to judge. A call naming a tool before any
//     listing (a client that remembers names from an earlier run) makes
//     the proxy list the tools itself first, with a request id of its own
//     that no request in flight has.
//   - a tools/call result is checked against the outputSchema: a
//     structuredContent breaking the server's own is logged. When the
//     client is one that fails the whole call on it (the TypeScript SDK's
//     Client and the Python SDK's ClientSession do; see results), the
//     result becomes a tool error carrying the structured result as JSON
//     text, which both take; a result missing structuredContent gets it
//     from its JSON text when the schema accepts that. VS Code does not
//     check, and gets the result as it came.
//   - over Streamable HTTP, the proxy's headers follow the rewrite
//     (Mcp-Name names the server's tool; Mcp-Param-* mirror the coerced
//     arguments that the schema marks x-mcp-header). A tool whose
//     x-mcp-header annotations are invalid, as rules.HeaderAnnotations
//     judges them (the check of rule x-mcp-header-valid), is left out of
//     the listing from 2026-07-28, as the specification has a client do,
//     and its annotations never become headers.
//
// The client adapted for is Options.For: a client of convert.Clients, Auto
// (from the clientInfo the client sends, in initialize or a 2026-07-28
// request's _meta, mapped by ForClientInfo; the choice is logged), or ""
// for every mainstream client in its default mode (names OpenAI,
// Anthropic and Gemini all take, schemas OpenAI's function parameters,
// Anthropic's input_schema and Gemini's parametersJsonSchema all take,
// results as the TypeScript SDK takes them). What the proxy changed is
// said once per tool and kind of change (Change), as text or JSON lines,
// redacted, with no argument values: coercions name the schema keyword,
// not the value.
//
// Transports: the client speaks stdio (the proxy's own stdin and stdout)
// or Streamable HTTP (Options.Listen); the server is a command (stdio, a
// process group of its own per live.Start) or a Streamable HTTP URL. Over
// HTTP the proxy is a server as the specification has one: sessions of
// its own (each with its own conversation with the server, and its own
// process for a command), a stream per request, GET and DELETE before
// 2026-07-28, one sessionless conversation from 2026-07-28, the Origin
// and Host checks of a local server, and the statuses a 2026-07-28 server
// gives errors. As a client of an HTTP server it keeps the session id and
// negotiated version, opens the GET stream, and deletes the session when
// the client goes. The legacy HTTP+SSE transport is not relayed.
//
// Lifecycle and limits: the client closing stdin stops the server and
// every process it started. A server that exits answers every request in
// flight with a JSON-RPC error, and Run returns an error wrapping
// ErrServer. The limits of mcplint check (live.Limits) apply: no message is
// read past MessageSize, on either side; requests in flight, sessions,
// queued messages and remembered names are bounded too.
package proxy
