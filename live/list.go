package live

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpfit/mcplint/internal/english"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
)

// Server is what the server says it is.
type Server struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	// Protocol is the negotiated protocol version.
	Protocol string `json:"protocol"`
	// Transport is the transport used: stdio, http, sse or the name of the
	// SDK transport given to ListTransport.
	Transport string `json:"transport"`
	// Handshake is how the protocol was negotiated: "server/discover"
	// (2026-07-28 and later) or "initialize" (before).
	Handshake string `json:"handshake,omitempty"`
}

// Listing is what a server publishes, as it sent it, to the clients of one
// protocol era.
type Listing struct {
	Server Server
	// Src is an NDJSON stream of JSON-RPC responses, one per tools/list
	// page, then the handshake result and the pages of prompts/list,
	// resources/list and resources/templates/list (surface.go), each
	// carrying the server's result byte for byte. Saved to a file it is a
	// manifest that `mcplint lint` and `fix` read.
	Src []byte
	// Manifest is Src loaded, named as Options.Name.
	Manifest *manifest.Manifest
	// Order is the tool names of the first listing; Again those of a
	// second one (nil when it was not made).
	Order, Again []string
	// Stdout holds the lines a stdio server wrote on stdout that are not
	// JSON-RPC (at most a few), and StdoutLines counts them all.
	Stdout      []string
	StdoutLines int
	// Declared are the list methods the handshake result declares a
	// capability for (tools/list for "tools", ...), in manifest.ListMethods
	// order: the lists that were asked for.
	Declared []string
	// Legacy is what the clients of the initialize handshake (protocol
	// 2025-11-25 and older, nearly every client in use) see of a server
	// that negotiated 2026-07-28 or later with server/discover: its
	// listing over initialize, made on the same process or endpoint. Nil
	// when the listing is itself over initialize, when Options.Protocol
	// fixed the version, or when the server refused initialize
	// (LegacyRefused says how).
	Legacy *Listing
	// Modern is, for the initialize era's listing of a dual-era server
	// (the Legacy of another), that other listing; nil otherwise.
	Modern *Listing
	// LegacyRefused says, in a few words, how a server that negotiated
	// 2026-07-28 or later answered initialize when it did not answer with
	// a listing: "" otherwise.
	LegacyRefused string
	// resultOffsets[i] is the offset in Src of page i's result.
	resultOffsets []int
}

// Eras are the listings of every era the server offers, the negotiated
// (newest) one first.
func (l *Listing) Eras() []*Listing {
	if l.Legacy == nil {
		return []*Listing{l}
	}
	return []*Listing{l, l.Legacy}
}

// Options tune a listing.
type Options struct {
	// Name names the manifest in diagnostics (default "server").
	Name string
	// Protocol is the version the client asks for, and the only era
	// listed; the server may negotiate another. Empty: the SDK's latest,
	// and then, when the server negotiates 2026-07-28 or later, the
	// initialize handshake too (Listing.Legacy).
	Protocol string
	// SkipSecondListing skips the listing that list-order-stable compares
	// with the first.
	SkipSecondListing bool
	// Limits bound what the server may send; zero fields take
	// DefaultLimits'.
	Limits Limits
	// negotiated, when set, hears the protocol version of each initialize
	// result as it arrives, before the SDK answers it (see
	// recorder.negotiated).
	negotiated func(version string)
}

// LegacyProtocol is the newest protocol version of the initialize
// handshake, which Listing.Legacy asks for.
const LegacyProtocol = "2025-11-25"

// modernProtocol is the first version negotiated with server/discover.
const modernProtocol = "2026-07-28"

// ListTransport connects over an SDK transport and lists the server's tools.
// It closes the session before returning. A transport can be connected
// more than once (a stdio command, an HTTP endpoint) for the second era of
// a dual-era server; this one is connected once, so only the negotiated
// era is listed.
func ListTransport(ctx context.Context, t mcp.Transport, opts Options) (*Listing, error) {
	return listOver(ctx, t, opts, fmt.Sprintf("%T", t))
}

// listEras lists the era the server negotiates and, when that is
// 2026-07-28 or later and no version was fixed, the initialize era too,
// over a new connection of t. The second era costs a handshake and the
// lists; a server that refuses initialize, or does not answer it within
// legacyWait, speaks only the modern era, which is no failure of the
// check.
//
// explain, when not nil, names the cause of a failed conversation better
// than the SDK's words (the HTTP status and the body's reason). fresh,
// when not nil, gives a connection to a new instance of the server (a
// stdio command started again), tried when the first refused initialize:
// a dual-era server may serve both eras on one process, but need not
// (MCP 2026-07-28, basic/versioning), and a client of the initialize era
// starts its own process; stop ends that instance.
func listEras(ctx context.Context, t mcp.Transport, opts Options, transport string, explain func(context.Context, error) error, fresh func() (t mcp.Transport, stop func(), err error)) (*Listing, error) {
	l, err := listOver(ctx, t, opts, transport)
	if err != nil || opts.Protocol != "" || !lint.AtLeast(l.Server.Protocol, modernProtocol) {
		return l, err
	}
	lopts := opts
	lopts.Protocol = LegacyProtocol
	lopts.SkipSecondListing = true // the order is the server's, whatever the era
	wait := legacyWait(ctx)
	lctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	legacy, err := listOver(lctx, t, lopts, transport)
	if e, ok := AsError(err); ok && e.handshake && fresh != nil {
		var stop func()
		if t, stop, err = fresh(); err == nil {
			defer stop()
			legacy, err = listOver(lctx, t, lopts, transport)
		}
	}
	if err != nil && explain != nil {
		err = explain(lctx, err)
	}
	if err == nil {
		if legacy.Server.Handshake != manifest.MethodInitialize {
			l.LegacyRefused = "answered with " + legacy.Server.Protocol
			return l, nil
		}
		l.Legacy, legacy.Modern = legacy, l
		return l, nil
	}
	e, ok := AsError(err)
	switch {
	case ctx.Err() != nil:
		return nil, err // the check's own time ran out
	case ok && (e.handshake || e.Kind == KindHTTP || e.Kind == KindExit || e.Kind == KindStart):
		l.LegacyRefused = e.Msg
		return l, nil
	case ok && e.Kind == KindTimeout:
		l.LegacyRefused = fmt.Sprintf("no answer to initialize within %s", wait.Round(time.Second))
		return l, nil
	}
	return nil, fmt.Errorf("the initialize era (protocol %s and older): %w", LegacyProtocol, err)
}

// legacyWait bounds the initialize era of a modern server: half the time
// left, at most 10 s, so that a server silent on initialize leaves time
// to report the rest.
func legacyWait(ctx context.Context) time.Duration {
	wait := 10 * time.Second
	if d, ok := ctx.Deadline(); ok {
		wait = min(wait, time.Until(d)/2)
	}
	return max(wait, 0)
}

// listOver holds the conversation: handshake, the listing, and a second
// listing for list-order-stable. transport names t in Server.Transport.
func listOver(ctx context.Context, t mcp.Transport, opts Options, transport string) (*Listing, error) {
	if opts.Name == "" {
		opts.Name = "server"
	}
	opts.Limits = opts.Limits.withDefaults()
	ct := &capturingTransport{inner: t, negotiated: opts.negotiated}
	l, err := converse(ctx, ct, opts, transport)
	if err != nil {
		if m := ct.conn.echo(); m != "" {
			return nil, failf(KindEcho, err, "the server sent our own %s request back instead of answering it: it does not speak MCP (a command that copies its input, such as cat, does this)", m)
		}
		return nil, err
	}
	return l, nil
}

func converse(ctx context.Context, ct *capturingTransport, opts Options, transport string) (_ *Listing, err error) {
	client := mcp.NewClient(&mcp.Implementation{Name: "mcplint", Version: "1"}, nil)
	var sopts *mcp.ClientSessionOptions
	if opts.Protocol != "" {
		sopts = &mcp.ClientSessionOptions{ProtocolVersion: opts.Protocol}
	}
	cs, err := client.Connect(ctx, ct, sopts)
	if err != nil {
		err = handshakeError(ctx, err)
		if e, ok := AsError(err); ok && e.Kind != KindTimeout && e.Kind != KindCanceled {
			e.handshake = true
		}
		return nil, err
	}
	defer func() {
		closeSession(ctx, cs)
		// Ending the session is part of the check: one that ends past the
		// deadline is a timeout, though everything was listed.
		if err == nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
			err = limitf(LimitTimeout, KindTimeout, "the server answered, but ending its session did not finish before the timeout")
		}
	}()
	l := &Listing{}
	ir := cs.InitializeResult()
	if ir != nil {
		l.Server.Protocol = ir.ProtocolVersion
		if ir.ServerInfo != nil {
			l.Server.Name, l.Server.Version = ir.ServerInfo.Name, ir.ServerInfo.Version
		}
	}
	l.Server.Transport = transport
	hs := handshakeOf(ct.conn.takeSurface())
	if hs != nil {
		l.Server.Handshake = hs.method
		if l.Server.Name == "" {
			l.Server.Name, l.Server.Version = serverInfoOf(hs.result)
		}
	}
	l.Declared = declaredLists(hs, ir)
	var (
		pages   []rawPage
		refused []rawPage
	)
	if slices.Contains(l.Declared, manifest.MethodTools) {
		refusal, err := pageThrough(ctx, cs, ct.conn, opts.Limits, func(p rawPage, _ []json.RawMessage) {
			pages = append(pages, p)
		})
		if err != nil {
			return nil, err
		}
		if refusal != nil {
			refused = append(refused, *refusal)
		} else if !opts.SkipSecondListing {
			l.Again = []string{}
			_, err := pageThrough(ctx, cs, ct.conn, opts.Limits, func(_ rawPage, tools []json.RawMessage) {
				for _, raw := range tools {
					var t struct {
						Name string `json:"name"`
					}
					_ = json.Unmarshal(raw, &t)
					l.Again = append(l.Again, t.Name)
				}
			})
			if err != nil {
				if e, ok := AsError(err); ok && e.Limit != "" {
					return nil, err
				}
				return nil, fmt.Errorf("second listing: %w", err)
			}
		}
	}
	surface, err := listSurface(ctx, cs, ct.conn, opts.Limits, l.Declared)
	if err != nil {
		return nil, err
	}
	surface = append(refused, surface...)
	// Src is written into one buffer of its final size: the pages are
	// held once more, not several times over as a growing buffer would.
	size := surfaceSize(hs, surface)
	ids := make([][]byte, len(pages))
	for i, p := range pages {
		ids[i], _ = json.Marshal(p.id.Raw())
		size += len(pageHead) + len(ids[i]) + len(pageMid) + len(p.result) + len(pageEnd)
	}
	src := make([]byte, 0, size)
	for i, p := range pages {
		src = append(append(append(src, pageHead...), ids[i]...), pageMid...)
		l.resultOffsets = append(l.resultOffsets, len(src))
		src = append(append(src, p.result...), pageEnd...)
	}
	pages = nil
	l.Src = writeSurface(src, hs, surface)
	// The size was bounded by ListSize; the other bounds are the loader's.
	// The surface's pages are objects recorded under their method, which
	// the loader reads whatever they hold: an error here is the tools'.
	l.Manifest, err = manifest.Limits{Size: int64(len(l.Src)) + 1}.Load(opts.Name, l.Src)
	if err != nil {
		return nil, failf(KindResult, err, "the tools/list result is not a tool list (rule list-result-valid): %v", err)
	}
	for _, t := range l.Manifest.Tools {
		l.Order = append(l.Order, t.Name)
	}
	return l, nil
}

// declaredLists are the list methods whose capability the handshake
// result declares: a client asks for no other (MCP basic/lifecycle,
// "Operation": "Only use capabilities that were successfully negotiated";
// the TypeScript SDK's client answers an empty list without asking since
// modelcontextprotocol/typescript-sdk#1386). The raw result decides, since
// the SDK's decoding may drop a member; without one, the SDK's.
func declaredLists(hs *rawPage, ir *mcp.InitializeResult) []string {
	has := map[string]bool{}
	var raw struct {
		Capabilities map[string]json.RawMessage `json:"capabilities"`
	}
	if hs != nil && json.Unmarshal(hs.result, &raw) == nil && raw.Capabilities != nil {
		for k, v := range raw.Capabilities {
			has[k] = string(v) != "null"
		}
	} else if ir != nil && ir.Capabilities != nil {
		c := ir.Capabilities
		has["tools"], has["prompts"], has["resources"] = c.Tools != nil, c.Prompts != nil, c.Resources != nil
	}
	var out []string
	for _, m := range manifest.ListMethods {
		if has[capabilityOf[m]] {
			out = append(out, m)
		}
	}
	return out
}

// capabilityOf is the capability that declares each list method.
var capabilityOf = map[string]string{
	manifest.MethodTools: "tools", manifest.MethodPrompts: "prompts",
	manifest.MethodResources: "resources", manifest.MethodTemplates: "resources",
}

// serverInfoOf reads a handshake result's server name and version where
// the SDK found none: a server/discover result that gives "serverInfo" as
// a member of its own, as the initialize result does, rather than in
// "_meta" as 2026-07-28 specifies.
func serverInfoOf(result json.RawMessage) (name, version string) {
	var r struct {
		ServerInfo struct {
			Name    any `json:"name"`
			Version any `json:"version"`
		} `json:"serverInfo"`
	}
	_ = json.Unmarshal(result, &r)
	name, _ = r.ServerInfo.Name.(string)
	version, _ = r.ServerInfo.Version.(string)
	return name, version
}

// How each page is written in Listing.Src.
const (
	pageHead = `{"jsonrpc":"2.0","id":`
	pageMid  = `,"result":`
	pageEnd  = "}\n"
)

// pageThrough issues tools/list through the SDK, following nextCursor as the
// raw results give it, and gives each page to take with its tools (nil when
// the result is not a list: the manifest loader says precisely why). It
// stops at the first error, or when a limit is passed. A JSON-RPC error
// answering the first page is the server's refusal of the list, returned
// as a page (a finding of capabilities-match, as for the other lists); on
// a later page it is a failure.
func pageThrough(ctx context.Context, cs *mcp.ClientSession, c *capture, limits Limits, take func(rawPage, []json.RawMessage)) (*rawPage, error) {
	var (
		pages int
		tools int
		bytes int64
	)
	seen := map[string]bool{}
	cursor := ""
	for {
		if pages == limits.Pages {
			return nil, limitf(LimitPages, KindPagination, "tools/list did not end after %s, the limit; the server's pagination never ends", english.Count(limits.Pages, "page"))
		}
		_, err := cs.ListTools(ctx, &mcp.ListToolsParams{Cursor: cursor})
		got := c.take()
		for _, p := range got {
			if p.err != nil && p.local {
				return nil, localFailure(ctx, manifest.MethodTools, p.err.Message)
			}
			if p.err != nil {
				if pages == 0 {
					p.method = manifest.MethodTools
					return &p, nil
				}
				e := failf(KindRPC, p.err, "tools/list answered page %d with JSON-RPC error %d: %s", pages+1, p.err.Code, shownLine(ctx, p.err.Message))
				e.answered = true
				return nil, e
			}
		}
		if err != nil {
			if r := refusalOf(err, manifest.MethodTools); r != nil && pages == 0 {
				return r, nil
			}
			return nil, handshakeError(ctx, err)
		}
		if len(got) != 1 {
			return nil, failf(KindProtocol, nil, "tools/list: expected one response, got %d", len(got))
		}
		p := got[0]
		pages++
		if bytes += int64(len(p.result)); bytes > limits.ListSize {
			return nil, limitf(LimitListSize, KindLimit, "the tools/list results are larger than the limit of %s (%d page%s so far)", manifest.SizeText(limits.ListSize), pages, english.Plural(pages, "", "s"))
		}
		var r struct {
			Tools      []json.RawMessage `json:"tools"`
			NextCursor json.RawMessage   `json:"nextCursor"`
		}
		if err := json.Unmarshal(p.result, &r); err != nil {
			take(p, nil)
			return nil, nil
		}
		if tools += len(r.Tools); tools > limits.Tools {
			return nil, limitf(LimitTools, KindLimit, "tools/list returned more than %d tools, the limit (%d on %d page%s)", limits.Tools, tools, pages, english.Plural(pages, "", "s"))
		}
		take(p, r.Tools)
		var next string
		if json.Unmarshal(r.NextCursor, &next) != nil || next == "" {
			return nil, nil
		}
		if seen[next] {
			return nil, failf(KindPagination, nil, "tools/list returned the cursor %q a second time (page %d): the server's pagination loops", shown(secretsOf(ctx), next), pages)
		}
		seen[next] = true
		cursor = next
	}
}

// refusalOf is the JSON-RPC error a transport reported for a request of
// method, as a refused page: the Streamable HTTP client reads the error
// from the body of an HTTP error status (a 404 with -32601 "Method not
// found") and returns it, without a response reaching the connection.
func refusalOf(err error, method string) *rawPage {
	var we *jsonrpcError
	if !errors.As(err, &we) {
		return nil
	}
	return &rawPage{method: method, err: we}
}

// handshakeError classifies an error of the SDK.
func handshakeError(ctx context.Context, err error) error {
	if _, ok := AsError(err); ok {
		return err
	}
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded) || errors.Is(err, context.DeadlineExceeded):
		e := failf(KindTimeout, err, "the server did not answer before the timeout")
		e.Limit = LimitTimeout
		return e
	case errors.Is(ctx.Err(), context.Canceled):
		return failf(KindCanceled, err, "interrupted")
	}
	var we *jsonrpcError
	if errors.As(err, &we) {
		return failf(KindRPC, err, "the server answered the handshake with JSON-RPC error %d: %s", we.Code, shownLine(ctx, we.Message))
	}
	var bad *json.UnmarshalTypeError
	if errors.As(err, &bad) && bad.Field != "" {
		// The TypeScript SDK's client refuses the same result when it
		// parses it (InitializeResultSchema), so no client gets further.
		return failf(KindProtocol, err, "the server's handshake result is invalid: %s is %s where the MCP schema has %s; clients refuse the result and end the connection",
			shownLine(ctx, bad.Field), valueKind(bad.Value), jsonKind(bad.Type))
	}
	if v, ok := strings.CutPrefix(err.Error(), "unsupported protocol version: "); ok {
		// MCP basic/lifecycle, "Version Negotiation": "If the client does
		// not support the version in the server's response, it SHOULD
		// disconnect"; the TypeScript SDK's client throws "Server's
		// protocol version is not supported".
		return failf(KindProtocol, err, "the server answered initialize with protocol version %s, which is none of those this client speaks (%s); a client disconnects (MCP basic/lifecycle, \"Version Negotiation\")",
			shownLine(ctx, v), strings.Join(mcp.SupportedProtocolVersions(), ", "))
	}
	return failf(KindProtocol, err, "the MCP handshake failed: %s", shownLine(ctx, err.Error()))
}

// SameSurface reports whether two listings (the eras of a server) publish
// the same tools, prompts, resources and resource templates, each the same
// bytes under the same key, whatever their order and the results' other
// members (the cache members only 2026-07-28 has).
func SameSurface(a, b *Listing) bool {
	return sameEntries(toolEntries(a.Manifest), toolEntries(b.Manifest)) &&
		sameEntries(keyed(a.Manifest.Prompts), keyed(b.Manifest.Prompts)) &&
		sameEntries(keyed(a.Manifest.Resources), keyed(b.Manifest.Resources)) &&
		sameEntries(keyed(a.Manifest.Templates), keyed(b.Manifest.Templates))
}

func toolEntries(m *manifest.Manifest) map[string]string {
	out := map[string]string{}
	for _, t := range m.Tools {
		raw, _ := t.Raw()
		out[t.Name] = string(raw)
	}
	return out
}

func keyed(es []*manifest.Entry) map[string]string {
	out := map[string]string{}
	for _, e := range es {
		out[e.Key] = string(e.Raw())
	}
	return out
}

func sameEntries(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// valueKind names the JSON kind of the value a decoding error quotes: its
// kind's name (encoding/json), or the start of its text, quoted (the
// decoder the SDK uses).
func valueKind(v string) string {
	if text, err := strconv.Unquote(v); err == nil {
		v = text
	}
	if v == "" {
		return "a value of another kind"
	}
	switch v[0] {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		if strings.HasPrefix(v, "true") || strings.HasPrefix(v, "false") {
			return "a boolean"
		}
	case 'n':
		if strings.HasPrefix(v, "null") {
			return "null"
		}
	}
	if v[0] == '-' || v[0] >= '0' && v[0] <= '9' {
		return "a number"
	}
	return english.A(v)
}

// localFailure is a request the transport ended on this side, as a
// failure of the conversation in words that say what the server did.
func localFailure(ctx context.Context, method, msg string) *Error {
	if strings.Contains(msg, "terminated without response") {
		// The SDK's Streamable HTTP client, when the event stream that
		// answers a request ends before the response (and gives no event
		// id to resume from).
		return failf(KindProtocol, nil, "%s: the server ended the event stream of its answer without the response", method)
	}
	return failf(KindProtocol, nil, "%s: %s", method, shownLine(ctx, msg))
}
