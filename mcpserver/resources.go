package mcpserver

import (
	"bytes"
	"context"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpfit/mcplint/report"
)

// Resource addresses.
const (
	rulesURI     = "mcplint://rules/"
	consumersURI = "mcplint://consumers"
)

func (h *handlers) addResources(s *mcp.Server) {
	for _, r := range h.o.Catalogue {
		s.AddResource(&mcp.Resource{
			URI: rulesURI + r.ID, Name: r.ID, Title: "mcplint rule " + r.ID,
			// Not the rule's summary: a summary of a security rule names
			// what it looks for, which a client's own checks would flag.
			Description: "The documentation of mcplint's rule " + r.ID + ": why it exists, which clients refuse what it reports, examples and sources.",
			MIMEType:    "text/markdown",
		}, h.readRule)
	}
	s.AddResource(&mcp.Resource{
		URI: consumersURI, Name: "consumers", Title: "Which clients refuse what",
		Description: "The consumer matrix: every client and API that reads tool definitions, in the mode it reads them, what each refuses (by rule) with the error it gives and the public source.",
		MIMEType:    "text/markdown",
	}, h.readConsumers)
}

func (h *handlers) readRule(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	id := strings.TrimPrefix(req.Params.URI, rulesURI)
	for _, r := range h.o.Catalogue {
		if r.ID == id {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "text/markdown", Text: report.RuleMarkdown(r, 1, h.o.Catalogue)}}}, nil
		}
	}
	return nil, mcp.ResourceNotFoundError(req.Params.URI)
}

func (h *handlers) readConsumers(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	var b bytes.Buffer
	if err := report.WriteConsumersMarkdown(&b, h.o.Catalogue); err != nil {
		return nil, err
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "text/markdown", Text: b.String()}}}, nil
}
