package live

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpfit/mcplint/internal/english"
	"github.com/mcpfit/mcplint/manifest"
)

// A server publishes more than tools. After the tool list, a listing asks
// for prompts/list, resources/list and resources/templates/list, following
// every page, for each capability the server declares (a client asks for
// no other: see declaredLists), and keeps the handshake result
// (initialize, or server/discover at 2026-07-28) the SDK received: the
// raw results of all of them are taken from the connection, as the tools'
// are. They follow the tool pages in Listing.Src, each response's "id"
// naming its method; a list the server refused is kept as its error
// response.

// surfaceMethods are the methods whose responses capture keeps aside.
var surfaceMethods = map[string]bool{
	manifest.MethodInitialize: true, manifest.MethodDiscover: true,
	manifest.MethodPrompts: true, manifest.MethodResources: true, manifest.MethodTemplates: true,
}

// surfacePlaceholders is what the SDK sees of a list result: an empty
// list, so that it neither refuses a malformed result (a finding, not a
// reason to stop) nor filters one.
var surfacePlaceholders = map[string]json.RawMessage{
	manifest.MethodPrompts:   json.RawMessage(`{"prompts":[],"resultType":"complete"}`),
	manifest.MethodResources: json.RawMessage(`{"resources":[],"resultType":"complete"}`),
	manifest.MethodTemplates: json.RawMessage(`{"resourceTemplates":[],"resultType":"complete"}`),
}

// recordSurface keeps a response of the surface and returns what the SDK
// gets. c.mu is held.
func (c *capture) recordSurface(resp *jsonrpc.Response, method string) jsonrpc.Message {
	p := rawPage{id: resp.ID, method: method}
	if resp.Error != nil {
		p.err, p.local = wireError(resp.Error)
		c.surface = append(c.surface, p)
		return resp
	}
	p.result = append(json.RawMessage(nil), resp.Result...)
	c.surface = append(c.surface, p)
	if placeholder, ok := surfacePlaceholders[method]; ok {
		return &jsonrpc.Response{ID: resp.ID, Result: placeholder}
	}
	return resp
}

// takeSurface returns and forgets the responses of the surface received
// so far.
func (c *capture) takeSurface() []rawPage {
	c.mu.Lock()
	defer c.mu.Unlock()
	p := c.surface
	c.surface = nil
	return p
}

// handshakeOf picks, among the handshake responses captured while the
// session was made, the last successful one: the SDK may try
// server/discover first, then initialize.
func handshakeOf(got []rawPage) *rawPage {
	var hs *rawPage
	for i := range got {
		if got[i].err == nil && manifest.Handshake(got[i].method) && isObject(got[i].result) {
			hs = &got[i]
		}
	}
	return hs
}

// listSurface lists the prompts, resources and resource templates of the
// declared capabilities, each list held to limits as the tools' is.
func listSurface(ctx context.Context, cs *mcp.ClientSession, c *capture, limits Limits, declared []string) ([]rawPage, error) {
	var out []rawPage
	for _, method := range manifest.ListMethods[1:] {
		if !slices.Contains(declared, method) {
			continue
		}
		pages, err := pageSurface(ctx, cs, c, method, limits)
		if err != nil {
			return nil, err
		}
		out = append(out, pages...)
	}
	return out, nil
}

// pageSurface issues one list method through the SDK, following
// nextCursor as the raw results give it. A JSON-RPC error ends the list as
// a page of its own (a refusal); a failed transport or a timeout fails the
// listing.
func pageSurface(ctx context.Context, cs *mcp.ClientSession, c *capture, method string, limits Limits) ([]rawPage, error) {
	var (
		pages   []rawPage
		entries int
		bytes   int64
	)
	seen := map[string]bool{}
	cursor := ""
	for {
		if len(pages) == limits.Pages {
			return nil, limitf(LimitPages, KindPagination, "%s did not end after %s, the limit; the server's pagination never ends", method, english.Count(limits.Pages, "page"))
		}
		var err error
		switch method {
		case manifest.MethodPrompts:
			_, err = cs.ListPrompts(ctx, &mcp.ListPromptsParams{Cursor: cursor})
		case manifest.MethodResources:
			_, err = cs.ListResources(ctx, &mcp.ListResourcesParams{Cursor: cursor})
		case manifest.MethodTemplates:
			_, err = cs.ListResourceTemplates(ctx, &mcp.ListResourceTemplatesParams{Cursor: cursor})
		}
		got := c.takeSurface()
		if len(got) == 1 && got[0].err != nil {
			if got[0].local {
				return nil, localFailure(ctx, method, got[0].err.Message)
			}
			return append(pages, got[0]), nil
		}
		if err != nil {
			if r := refusalOf(err, method); r != nil && len(got) == 0 {
				return append(pages, *r), nil
			}
			return nil, handshakeError(ctx, err)
		}
		if len(got) != 1 {
			return nil, failf(KindProtocol, nil, "%s: expected one response, got %d", method, len(got))
		}
		p := got[0]
		if !isObject(p.result) {
			return nil, failf(KindResult, nil, "the %s result is not an object (rule surface-result-valid): %s", method, shownLine(ctx, string(p.result)))
		}
		pages = append(pages, p)
		if bytes += int64(len(p.result)); bytes > limits.ListSize {
			return nil, limitf(LimitListSize, KindLimit, "the %s results are larger than the limit of %s (%d page%s so far)", method, manifest.SizeText(limits.ListSize), len(pages), english.Plural(len(pages), "", "s"))
		}
		var r map[string]json.RawMessage
		_ = json.Unmarshal(p.result, &r)
		var list []json.RawMessage
		_ = json.Unmarshal(r[manifest.ListMember(method)], &list)
		if entries += len(list); entries > limits.Tools {
			return nil, limitf(LimitTools, KindLimit, "%s returned more than %d entries, the limit (%d on %d page%s)", method, limits.Tools, entries, len(pages), english.Plural(len(pages), "", "s"))
		}
		var next string
		if json.Unmarshal(r["nextCursor"], &next) != nil || next == "" {
			return pages, nil
		}
		if seen[next] {
			return nil, failf(KindPagination, nil, "%s returned the cursor %q a second time (page %d): the server's pagination loops", method, shown(secretsOf(ctx), next), len(pages))
		}
		seen[next] = true
		cursor = next
	}
}

func isObject(raw json.RawMessage) bool {
	for _, b := range raw {
		switch b {
		case ' ', '\t', '\r', '\n':
			continue
		}
		return b == '{'
	}
	return false
}

// surfaceSize bounds the bytes writeSurface appends.
func surfaceSize(hs *rawPage, pages []rawPage) int {
	const line = 64 // a line's JSON-RPC frame, an error's code and frame
	n := 0
	if hs != nil {
		n += line + len(hs.result)
	}
	for _, p := range pages {
		n += line + len(p.result)
		if p.err != nil {
			n += len(p.err.Message) * 2
		}
	}
	return n
}

// writeSurface appends the handshake result and the surface's pages to
// src, one JSON-RPC response per line, each "id" naming its method.
func writeSurface(src []byte, hs *rawPage, pages []rawPage) []byte {
	line := func(method, member string, body []byte) {
		id, _ := json.Marshal(method)
		src = append(src, `{"jsonrpc":"2.0","id":`...)
		src = append(src, id...)
		src = append(src, `,"`+member+`":`...)
		src = append(src, body...)
		src = append(src, "}\n"...)
	}
	if hs != nil {
		line(hs.method, "result", hs.result)
	}
	for _, p := range pages {
		if p.err != nil {
			body, _ := json.Marshal(struct {
				Code    int64  `json:"code"`
				Message string `json:"message"`
			}{p.err.Code, p.err.Message})
			line(p.method, "error", body)
			continue
		}
		line(p.method, "result", p.result)
	}
	return src
}
