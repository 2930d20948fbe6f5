package live

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcplint/mcplint/manifest"
)

// Bounds on a listing, so that a server whose pagination never ends cannot
// keep a check running until its timeout.
const (
	MaxPages = 1000
	MaxTools = 100000
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
	ct := &capturingTransport{inner: t}
	client := mcp.NewClient(&mcp.Implementation{Name: "mcplint", Version: "1"}, nil)
	var sopts *mcp.ClientSessionOptions
	if opts.Protocol != "" {
		sopts = &mcp.ClientSessionOptions{ProtocolVersion: opts.Protocol}
	}
	cs, err := client.Connect(ctx, ct, sopts)
	if err != nil {
		return nil, handshakeError(ctx, err)
	}
	defer cs.Close()
	l := &Listing{}
	if ir := cs.InitializeResult(); ir != nil {
		l.Server.Protocol = ir.ProtocolVersion
		if ir.ServerInfo != nil {
			l.Server.Name, l.Server.Version = ir.ServerInfo.Name, ir.ServerInfo.Version
		}
	}
	l.Server.Transport = transport
	hs := handshakeOf(ct.conn.takeSurface())
	pages, err := pageThrough(ctx, cs, ct.conn)
	if err != nil {
		return nil, err
	}
	var src bytes.Buffer
	for _, p := range pages {
		id, _ := json.Marshal(p.id.Raw())
		src.WriteString(`{"jsonrpc":"2.0","id":`)
		src.Write(id)
		src.WriteString(`,"result":`)
		l.resultOffsets = append(l.resultOffsets, src.Len())
		src.Write(p.result)
		src.WriteString("}\n")
	}
	if !opts.SkipSecondListing {
		again, err := pageThrough(ctx, cs, ct.conn)
		if err != nil {
			return nil, fmt.Errorf("second listing: %w", err)
		}
		l.Again = []string{}
		for _, p := range again {
			var r struct {
				Tools []struct {
					Name string `json:"name"`
				} `json:"tools"`
			}
			_ = json.Unmarshal(p.result, &r)
			for _, t := range r.Tools {
				l.Again = append(l.Again, t.Name)
			}
		}
	}
	surface, err := listSurface(ctx, cs, ct.conn)
	if err != nil {
		return nil, err
	}
	l.Src = writeSurface(src.Bytes(), hs, surface)
	// The surface's pages are objects recorded under their method, which
	// the loader reads whatever they hold: an error here is the tools'.
	l.Manifest, err = manifest.Load(opts.Name, l.Src)
	if err != nil {
		return nil, failf(KindResult, err, "the tools/list result is not a tool list (rule list-result-valid): %v", err)
	}
	for _, t := range l.Manifest.Tools {
		l.Order = append(l.Order, t.Name)
	}
	return l, nil
}

// pageThrough issues tools/list through the SDK, following nextCursor as the
// raw results give it.
func pageThrough(ctx context.Context, cs *mcp.ClientSession, c *capture) ([]rawPage, error) {
	var (
		pages []rawPage
		tools int
	)
	seen := map[string]bool{}
	cursor := ""
	for {
		if len(pages) == MaxPages {
			return nil, failf(KindPagination, nil, "tools/list did not end after %d pages; the server's pagination never ends", MaxPages)
		}
		_, err := cs.ListTools(ctx, &mcp.ListToolsParams{Cursor: cursor})
		got := c.take()
		for _, p := range got {
			if p.err != nil {
				e := failf(KindRPC, p.err, "tools/list answered with JSON-RPC error %d: %s", p.err.Code, oneLine(p.err.Message))
				e.answered = true
				return nil, e
			}
		}
		if err != nil {
			return nil, handshakeError(ctx, err)
		}
		if len(got) != 1 {
			return nil, failf(KindProtocol, nil, "tools/list: expected one response, got %d", len(got))
		}
		p := got[0]
		pages = append(pages, p)
		var r struct {
			Tools      []json.RawMessage `json:"tools"`
			NextCursor json.RawMessage   `json:"nextCursor"`
		}
		if err := json.Unmarshal(p.result, &r); err != nil {
			// Not a list: the manifest loader says precisely why.
			return pages, nil
		}
		if tools += len(r.Tools); tools > MaxTools {
			return nil, failf(KindPagination, nil, "tools/list returned more than %d tools over %d pages; the server's pagination never ends", MaxTools, len(pages))
		}
		var next string
		if json.Unmarshal(r.NextCursor, &next) != nil || next == "" {
			return pages, nil
		}
		if seen[next] {
			return nil, failf(KindPagination, nil, "tools/list returned the cursor %q a second time (page %d): the server's pagination loops", clip(next), len(pages))
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
		return failf(KindTimeout, err, "the server did not answer in time (timeout)")
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
