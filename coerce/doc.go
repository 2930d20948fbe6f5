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
// pattern), only a string the pattern accepts, and only a decimal string
// (Decimal; an integer when the numeric branch admits only integers).
// A string such a parameter does not accept is refused before the handler
// runs, as a tool execution error naming the argument, so the model can
// correct itself. Every other value and every other parameter is passed on
// untouched; Arguments does the same on raw arguments, for servers built on
// another library.
//
// # Decimal strings
//
// Decimal is the one definition of a decimal string, shared with mcplint
// proxy, which converts the arguments a client sends. Both repair what a
// model wrote on someone else's behalf, so they convert only a string whose
// number is beyond doubt and reaches the server as the same value:
//
//   - the string is a JSON number exactly as written (RFC 8259, section 6):
//     "5", "-0.25", "1e3", "-0". Converting then only drops the quotes.
//     "+5", ".5", "5.", "007", "00.5", " 5", "5 ", "0x10", "NaN" and
//     "Infinity" stay strings: JSON cannot spell them, and each is a guess
//     (leading zeros are octal to some languages and part of a code such as
//     a postal number to others; spaces may be a truncated value);
//   - for an integer, no fraction or exponent: "1.0" and "1e3" stay strings,
//     since JSON Schema calls 1.0 an integer but a typed server may not
//     (Go's encoding/json refuses 1.0 for an int);
//   - the value is one every JSON reader holds exactly: an integer within
//     ±(2^53−1), a number no more precise than a double and neither past
//     its range nor so small it reads as 0 (RFC 7493, I-JSON, section 2.2).
//     "9007199254740993" sent to a JavaScript server as a number would
//     arrive as …992: as a string, the server's validation refuses it and
//     the model can correct itself.
//
// A string that stays is passed on as sent: the server's validation judges
// it. The table of these cases is internal/decimaltest, run through
// Arguments, Middleware and the proxy alike.
//
// The package depends on the SDK and the standard library only (and on
// internal/schematype, which reads "type" the way package schema does with
// nothing else), so a server that imports it does not carry the rest of
// mcplint.
package coerce
