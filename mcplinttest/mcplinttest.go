// Package mcplinttest lets the author of a Go MCP server built with the
// official SDK (github.com/modelcontextprotocol/go-sdk) lint the tools the
// server publishes from `go test`: Check connects a client to the server
// over the SDK's in-memory transport, lists its tools, prompts, resources
// and resource templates as a real client does, runs mcplint's default
// rules on what was listed, and fails the test with the findings.
//
//	func TestToolsLint(t *testing.T) {
//		mcplinttest.Check(t, myserver.New())
//	}
//
// With the option StringNumbers, Check also calls the tools whose schemas
// declare the string form of a number, to see that the server converts it
// (package coerce does, for go-sdk servers).
package mcplinttest

import (
	"bytes"
	"context"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcplint/mcplint/lint"
	"github.com/mcplint/mcplint/live"
	"github.com/mcplint/mcplint/report"
	"github.com/mcplint/mcplint/rules"
)

// TB is the part of testing.TB that Check uses.
type TB interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
}

// Option adjusts a check.
type Option func(*options)

type options struct {
	cfg     lint.Config
	failOn  lint.Severity
	timeout time.Duration
	// stringNumbers: call the tools that declare string forms (see
	// StringNumbers), all of them or those named.
	stringNumbers     bool
	stringNumberTools []string
}

// Select replaces the default rule selection (rule IDs, pack names, "all").
func Select(rulesOrPacks ...string) Option {
	return func(o *options) { o.cfg.Select = append(o.cfg.Select, rulesOrPacks...) }
}

// Ignore drops rules or packs from the selection.
func Ignore(rulesOrPacks ...string) Option {
	return func(o *options) { o.cfg.Ignore = append(o.cfg.Ignore, rulesOrPacks...) }
}

// Protocol checks against this MCP protocol version instead of the
// negotiated one.
func Protocol(version string) Option {
	return func(o *options) { o.cfg.Protocol = version }
}

// FailOn sets the least severity that fails the test (default: warning, so
// that a clean server stays clean).
func FailOn(s lint.Severity) Option {
	return func(o *options) { o.failOn = s }
}

// Check lists server's tools over an in-memory connection and fails t with
// the diagnostics that reach the FailOn severity. It returns every
// diagnostic, for tests that look further.
func Check(t TB, server *mcp.Server, opts ...Option) []lint.Diagnostic {
	t.Helper()
	o := options{failOn: lint.Warning, timeout: 30 * time.Second}
	for _, opt := range opts {
		opt(&o)
	}
	diags, m, err := run(server, o)
	if err != nil {
		t.Fatalf("mcplinttest: %v", err)
		return nil
	}
	var failing []lint.Diagnostic
	for _, d := range diags {
		if o.failOn != 0 && d.Severity >= o.failOn {
			failing = append(failing, d)
		}
	}
	if len(failing) > 0 {
		var buf bytes.Buffer
		_ = report.WriteText(&buf, []report.File{{Manifest: m.Manifest, Diagnostics: failing}}, report.TextOptions{})
		t.Errorf("mcplint found problems in the tools of %s:\n\n%s", m.Server.Name, buf.String())
	}
	if o.stringNumbers {
		ctx, cancel := context.WithTimeout(context.Background(), o.timeout)
		defer cancel()
		msgs, err := checkStringNumbers(ctx, server, o.stringNumberTools)
		if err != nil {
			t.Fatalf("mcplinttest: %v", err)
			return diags
		}
		for _, msg := range msgs {
			t.Errorf("mcplinttest: %s", msg)
		}
	}
	return diags
}

func run(server *mcp.Server, o options) ([]lint.Diagnostic, *live.Listing, error) {
	ctx, cancel := context.WithTimeout(context.Background(), o.timeout)
	defer cancel()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("connect the server: %w", err)
	}
	defer ss.Close()
	l, err := live.ListTransport(ctx, ct, live.Options{Name: "tools/list"})
	if err != nil {
		return nil, nil, err
	}
	cfg := o.cfg
	if len(cfg.Select) == 0 {
		// As `mcplint check`: the security pack too.
		cfg.ExtendSelect = append(cfg.ExtendSelect, rules.SecurityPack)
	}
	if cfg.Protocol == "" && lint.ValidProtocol(l.Server.Protocol) {
		cfg.Protocol = l.Server.Protocol
	}
	linter, err := lint.New(rules.All, cfg)
	if err != nil {
		return nil, nil, err
	}
	diags, err := live.Check(linter, l)
	if err != nil {
		return nil, nil, err
	}
	return diags, l, nil
}
