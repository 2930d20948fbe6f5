package live

import (
	"errors"
	"fmt"
	"strings"
)

// Kind classifies a failed conversation.
type Kind string

const (
	KindStart      Kind = "start"      // the command does not exist or cannot be run
	KindExit       Kind = "exit"       // the server exited before the tool list was read
	KindTimeout    Kind = "timeout"    // no complete answer within the time allowed
	KindStdout     Kind = "stdout"     // the server wrote only non-protocol text on stdout
	KindRPC        Kind = "rpc"        // the handshake (or a later page of tools/list) answered with a JSON-RPC error
	KindResult     Kind = "result"     // the tools/list result is not a tool list
	KindPagination Kind = "pagination" // a repeated cursor, or more pages than Limits.Pages
	KindHTTP       Kind = "http"       // an HTTP error status
	KindConnect    Kind = "connect"    // the connection could not be made
	KindTLS        Kind = "tls"        // the TLS handshake or certificate failed
	KindRedirect   Kind = "redirect"   // the server redirected
	KindOrigin     Kind = "origin"     // the server named another origin to send requests to
	KindProtocol   Kind = "protocol"   // the handshake failed otherwise
	KindCanceled   Kind = "canceled"   // the caller gave up (Ctrl-C)
	KindLimit      Kind = "limit"      // a message or the listing passed its Limits
	KindEcho       Kind = "echo"       // the command sent our own requests back: not an MCP server
)

// Error is a conversation that did not produce a tool list. Its message is
// one line; Stderr holds the last lines the server wrote on its standard
// error, when there are any, for the caller to show below it.
type Error struct {
	Kind   Kind
	Msg    string
	Stderr []string
	Err    error
	// Limit names the bound the server passed (see Limits), "" when the
	// failure is not one; KindTimeout errors have LimitTimeout.
	Limit Limit
	// answered: the server itself answered so (a JSON-RPC error or a bad
	// result), as opposed to the transport failing.
	answered bool
	// handshake: the failure is the handshake's own (an error answer, a
	// transport that refused it), not a timeout or a later request's.
	handshake bool
}

func (e *Error) Error() string { return e.Msg }
func (e *Error) Unwrap() error { return e.Err }

// Detail is the message followed by the server's last stderr lines.
func (e *Error) Detail() string {
	if len(e.Stderr) == 0 {
		return e.Msg
	}
	return e.Msg + "\n  last lines of its stderr:\n    " + strings.Join(e.Stderr, "\n    ")
}

func failf(kind Kind, err error, format string, args ...any) *Error {
	return &Error{Kind: kind, Msg: fmt.Sprintf(format, args...), Err: err}
}

// AsError returns err as an *Error, if it is one.
func AsError(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}
