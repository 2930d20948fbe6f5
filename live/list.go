package live

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpfit/mcplint/internal/english"
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
}

// Listing is what a server publishes, as it sent it.
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
	// resultOffsets[i] is the offset in Src of page i's result.
	resultOffsets []int
}

// Options tune a listing.
type Options struct {
	// Name names the manifest in diagnostics (default "server").
	Name string
	// Protocol is the version the client asks for; the server may
	// negotiate another. Empty: the SDK's latest.
	Protocol string
	// SkipSecondListing skips the listing that list-order-stable compares
	// with the first.
	SkipSecondListing bool
	// Limits bound what the server may send; zero fields take
	// DefaultLimits'.
	Limits Limits
}

// ListTransport connects over an SDK transport and lists the server's tools.
// It closes the session before returning.
func ListTransport(ctx context.Context, t mcp.Transport, opts Options) (*Listing, error) {
	return listOver(ctx, t, opts, fmt.Sprintf("%T", t))
}

// listOver holds the conversation: handshake, the listing, and a second
// listing for list-order-stable. transport names t in Server.Transport.
func listOver(ctx context.Context, t mcp.Transport, opts Options, transport string) (*Listing, error) {
	if opts.Name == "" {
		opts.Name = "server"
	}
	opts.Limits = opts.Limits.withDefaults()
	ct := &capturingTransport{inner: t}
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
		return nil, handshakeError(ctx, err)
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
	if ir := cs.InitializeResult(); ir != nil {
		l.Server.Protocol = ir.ProtocolVersion
		if ir.ServerInfo != nil {
			l.Server.Name, l.Server.Version = ir.ServerInfo.Name, ir.ServerInfo.Version
		}
	}
	l.Server.Transport = transport
	hs := handshakeOf(ct.conn.takeSurface())
	var pages []rawPage
	err = pageThrough(ctx, cs, ct.conn, opts.Limits, func(p rawPage, _ []json.RawMessage) {
		pages = append(pages, p)
	})
	if err != nil {
		return nil, err
	}
	if !opts.SkipSecondListing {
		l.Again = []string{}
		err := pageThrough(ctx, cs, ct.conn, opts.Limits, func(_ rawPage, tools []json.RawMessage) {
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
	surface, err := listSurface(ctx, cs, ct.conn, opts.Limits)
	if err != nil {
		return nil, err
	}
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

// How each page is written in Listing.Src.
const (
	pageHead = `{"jsonrpc":"2.0","id":`
	pageMid  = `,"result":`
	pageEnd  = "}\n"
)

// pageThrough issues tools/list through the SDK, following nextCursor as the
// raw results give it, and gives each page to take with its tools (nil when
// the result is not a list: the manifest loader says precisely why). It
// stops at the first error, or when a limit is passed.
func pageThrough(ctx context.Context, cs *mcp.ClientSession, c *capture, limits Limits, take func(rawPage, []json.RawMessage)) error {
	var (
		pages int
		tools int
		bytes int64
	)
	seen := map[string]bool{}
	cursor := ""
	for {
		if pages == limits.Pages {
			return limitf(LimitPages, KindPagination, "tools/list did not end after %d pages, the limit; the server's pagination never ends", limits.Pages)
		}
		_, err := cs.ListTools(ctx, &mcp.ListToolsParams{Cursor: cursor})
		got := c.take()
		for _, p := range got {
			if p.err != nil {
				e := failf(KindRPC, p.err, "tools/list answered with JSON-RPC error %d: %s", p.err.Code, oneLine(p.err.Message))
				e.answered = true
				return e
			}
		}
		if err != nil {
			return handshakeError(ctx, err)
		}
		if len(got) != 1 {
			return failf(KindProtocol, nil, "tools/list: expected one response, got %d", len(got))
		}
		p := got[0]
		pages++
		if bytes += int64(len(p.result)); bytes > limits.ListSize {
			return limitf(LimitListSize, KindLimit, "the tools/list results are larger than the limit of %s (%d page%s so far)", manifest.SizeText(limits.ListSize), pages, english.Plural(pages, "", "s"))
		}
		var r struct {
			Tools      []json.RawMessage `json:"tools"`
			NextCursor json.RawMessage   `json:"nextCursor"`
		}
		if err := json.Unmarshal(p.result, &r); err != nil {
			take(p, nil)
			return nil
		}
		if tools += len(r.Tools); tools > limits.Tools {
			return limitf(LimitTools, KindLimit, "tools/list returned more than %d tools, the limit (%d on %d page%s)", limits.Tools, tools, pages, english.Plural(pages, "", "s"))
		}
		take(p, r.Tools)
		var next string
		if json.Unmarshal(r.NextCursor, &next) != nil || next == "" {
			return nil
		}
		if seen[next] {
			return failf(KindPagination, nil, "tools/list returned the cursor %q a second time (page %d): the server's pagination loops", clip(next), pages)
		}
		seen[next] = true
		cursor = next
	}
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
		return failf(KindRPC, err, "the server answered the handshake with JSON-RPC error %d: %s", we.Code, oneLine(we.Message))
	}
	return failf(KindProtocol, err, "the MCP handshake failed: %s", oneLine(err.Error()))
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	return clip(s)
}

func clip(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}
