// Package coerce is the server half of mcplint's integer-accepts-string fix
// for Go servers built with the official SDK
// (github.com/modelcontextprotocol/go-sdk). The fix widens a numeric
// parameter into the form
//
//	{"oneOf": [{"type": "integer", "minimum": 1},
//	           {"type": "string", "pattern": "^[1-9][0-9]*$"}]}
//
// so that a client that validates arguments lets "5" through where a model
// quoted a number. The schema then promises something the server must keep:
// a typed handler (mcp.AddTool) unmarshals the arguments into its Go struct,
// and a field of type int does not unmarshal from "5" even when the schema
// accepts it. Middleware converts such strings into numbers before the SDK
// validates and unmarshals:
//
//	server := mcp.NewServer(impl, nil)
//	server.AddReceivingMiddleware(coerce.Middleware())
//
// It converts only where the tool's own input schema accepts the string form
// (a oneOf or anyOf of exactly a numeric branch and a string branch with a
// pattern), only a string the pattern accepts, and only a decimal spelling
// of a number (an integer when the numeric branch admits only integers).
// A string such a parameter does not accept is refused before the handler
// runs, as a tool execution error naming the argument, so the model can
// correct itself. Every other value and every other parameter is passed on
// untouched; Arguments does the same on raw arguments, for servers built on
// another library.
//
// The package depends on the SDK and the standard library only (and on
// internal/schematype, which reads "type" the way package schema does with
// nothing else), so a server that imports it does not carry the rest of
// mcplint.
package coerce
