package live

import (
	"errors"
	"net/url"
	"strings"
)

// Requests go only to the origin the user named (its scheme, host and
// port, RFC 6454): the --header values are credentials for that origin,
// and a server must not steer them elsewhere. A redirect is refused
// (recorder.client), and so is any other request to another origin,
// whatever made the SDK issue it: the endpoint event of a legacy SSE
// server, which names where to POST, is the one a server controls. The
// MCP SDKs for TypeScript (client/sse.ts) and Python (mcp/client/sse.py)
// refuse such an endpoint the same way.

// errOtherOrigin fails a request to another origin before it is sent.
var errOtherOrigin = errors.New("request to another origin refused")

// sameOrigin reports whether a and b have one origin: the same scheme,
// host (in any case) and port (the scheme's default when none is given).
func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) &&
		strings.EqualFold(a.Hostname(), b.Hostname()) &&
		port(a) == port(b)
}

func port(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	switch strings.ToLower(u.Scheme) {
	case "http":
		return "80"
	case "https":
		return "443"
	}
	return ""
}
