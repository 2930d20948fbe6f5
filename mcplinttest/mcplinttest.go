// Package mcplinttest lets the author of a Go MCP server built with the
// official SDK (github.com/modelcontextprotocol/go-sdk) lint the tools the
// server publishes from `go test`: Check connects a client to the server
// over the SDK's in-memory transport, lists its tools, prompts, resources
// and resource templates as a real client does, runs mcplint's default
// rules and the security pack on what was listed, and fails the test with
// the findings, worded for Go: the tool and the property by the names the
// Go code gives them, and what to change in Go (the mcp.Tool's fields, the
// input type's jsonschema struct tags, or an explicit InputSchema) rather
// than a command to run.
//
//	func TestToolsLint(t *testing.T) {
//		mcplinttest.Check(t, myserver.New())
//	}
//
// The default fails on warnings and errors. An ordinary go-sdk server
// passes: the SDK's schemas for struct inputs (int, string, slice, pointer
// and optional fields) draw no warning (integers draw an info: a client
// that validates refuses "1"). A tool without arguments draws a warning:
// the SDK publishes {"type": "object"} for it, which OpenAI's API refuses
// ("object schema missing properties"; `mcplint rules
// openai-object-properties` cites the threads), and the failure says how to
// publish {"type": "object", "properties": {}} instead.
//
// With the option StringNumbers, Check also calls the tools whose schemas
// declare the string form of a number, to see that the server converts it
// (package coerce does, for go-sdk servers).
package mcplinttest

import (
	"context"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/live"
	"github.com/mcpfit/mcplint/rules"
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
	errs    []error
	// stringNumbers: call the tools that declare string forms (see
	// StringNumbers), all of them or those named.
	stringNumbers     bool
	stringNumberTools []string
}

// Select replaces the default rule selection (rule IDs, pack names, "all").
func Select(rulesOrPacks ...string) Option {
	return func(o *options) { o.cfg.Select = append(o.cfg.Select, rulesOrPacks...) }
}

// ExtendSelect runs these rules or packs as well as the selected ones, such
// as the client packs "openai-strict" or "gemini" for a server that those
// clients use.
func ExtendSelect(rulesOrPacks ...string) Option {
	return func(o *options) { o.cfg.ExtendSelect = append(o.cfg.ExtendSelect, rulesOrPacks...) }
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
// that a clean server stays clean); 0 never fails.
func FailOn(s lint.Severity) Option {
	return func(o *options) { o.failOn = s }
}

// RuleOption sets the option name of rule to value, as
// `--option RULE.NAME=VALUE` does (`mcplint rules RULE` lists a rule's
// options). A rule or option that does not exist, or a value of the wrong
// type, fails the test.
func RuleOption(rule, name string, value any) Option {
	return func(o *options) {
		var r *lint.Rule
		for _, c := range rules.All {
			if c.ID == rule {
				r = c
			}
		}
		if r == nil {
			o.errs = append(o.errs, fmt.Errorf("RuleOption: unknown rule %q", rule))
			return
		}
		v, err := lint.OptionValue(r, name, value)
		if err != nil {
			o.errs = append(o.errs, fmt.Errorf("RuleOption(%q, %q): %v", rule, name, err))
			return
		}
		if o.cfg.Options == nil {
			o.cfg.Options = map[string]map[string]any{}
		}
		if o.cfg.Options[rule] == nil {
			o.cfg.Options[rule] = map[string]any{}
		}
		o.cfg.Options[rule][name] = v
	}
}

// serverNameRules are the rules that count the names clients build from
// the server's name (as --server-name sets them).
var serverNameRules = []string{"claude-prefixed-name-length", "cursor-name-length"}

// ServerName is the name clients know the server by (the key of its entry
// in their configuration), for the rules that check the tool names they
// build from it, such as Claude's mcp__SERVER__TOOL within 64 characters.
func ServerName(name string) Option {
	return func(o *options) {
		for _, id := range serverNameRules {
			if o.cfg.Options == nil {
				o.cfg.Options = map[string]map[string]any{}
			}
			if o.cfg.Options[id] == nil {
				o.cfg.Options[id] = map[string]any{}
			}
			o.cfg.Options[id]["server-name"] = name
		}
	}
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
	for _, err := range o.errs {
		t.Fatalf("mcplinttest: %v", err)
		return nil
	}
	diags, l, err := run(server, o)
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
		t.Errorf("%s", failure(l.Server.Name, failing))
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
		// The security pack too, which lint and check leave to be asked
		// for: a server's own tests review it as strictly as can be.
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
