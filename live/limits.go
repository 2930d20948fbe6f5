package live

import (
	"errors"

	"github.com/mcpfit/mcplint/manifest"
)

// Limits bound what a server may make a check hold, so that a hostile or
// broken server cannot exhaust memory: a message is never buffered past
// MessageSize (a stdio line is refused as soon as it passes it, without
// reading the rest; an HTTP body or event is cut there), and a listing
// stops at ListSize bytes, Tools tools or Pages pages. Exceeding one is an
// *Error whose Limit names it.
type Limits struct {
	// MessageSize bounds one message: a line on a stdio server's stdout
	// (JSON-RPC or not), an HTTP response body, or one server-sent event.
	MessageSize int64
	// ListSize bounds the results of all the pages of one listing.
	ListSize int64
	// Tools bounds the tools of one listing.
	Tools int
	// Pages bounds the pages of one listing.
	Pages int
}

// Limit names one of the Limits, or the timeout.
type Limit string

const (
	LimitMessageSize Limit = "message-size"
	LimitListSize    Limit = "list-size"
	LimitTools       Limit = "tools"
	LimitPages       Limit = "pages"
	// LimitTimeout is the time the caller allowed (the context's deadline).
	LimitTimeout Limit = "timeout"
)

// DefaultLimits: no real server comes near them (the largest publish a
// few hundred tools in a few megabytes), and a check held to them peaks
// at about 1 GB (a listing is held some twenty-five times over at worst,
// as a manifest file is).
var DefaultLimits = Limits{
	MessageSize: 16 << 20,
	ListSize:    32 << 20,
	Tools:       100000,
	Pages:       1000,
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits
	if l.MessageSize > 0 {
		d.MessageSize = l.MessageSize
	}
	if l.ListSize > 0 {
		d.ListSize = l.ListSize
	}
	if l.Tools > 0 {
		d.Tools = l.Tools
	}
	if l.Pages > 0 {
		d.Pages = l.Pages
	}
	return d
}

// errMessageTooLarge is what a reader of a server's output returns once a
// message passes the limit; the conversation ends on it.
var errMessageTooLarge = errors.New("message larger than the limit")

// messageTooLarge is the failure of a server that sent a message over the
// limit; how is "a line on stdout", "an HTTP response", ….
func messageTooLarge(how string, limit int64) *Error {
	e := failf(KindLimit, errMessageTooLarge, "the server sent %s larger than the limit of %s for one message; it was not read further", how, manifest.SizeText(limit))
	e.Limit = LimitMessageSize
	return e
}

func limitf(limit Limit, kind Kind, format string, args ...any) *Error {
	e := failf(kind, nil, format, args...)
	e.Limit = limit
	return e
}
