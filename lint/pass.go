package lint

import (
	"fmt"
	"slices"

	"github.com/mcpfit/mcplint/consumer"
	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/schema"
)

// Pass is one rule's view of one tool.
type Pass struct {
	Rule *Rule
	Tool *manifest.Tool
	// Value is the decoded tool object. Rules must not modify it: copy
	// before transforming (normalize's functions do).
	Value map[string]any
	// Protocol is the newest MCP protocol version checked against. Rules
	// whose demands changed between versions ask Since and Before instead,
	// since a run may check a range of versions.
	Protocol string
	// Cache is shared by all passes of one run, for work that repeats
	// across tools (compiled schemas, for one). It is safe for concurrent
	// use.
	Cache *Cache
	// Run is shared by the passes of one run over one source, for state
	// that bounds the source as a whole in that run (a budget): a second
	// run over the same source starts afresh, and finds what the first
	// found. It is safe for concurrent use.
	Run *Cache

	runView
	schemas  *toolSchemas
	selected map[string]bool
	inPlay   map[consumer.ID]bool
	report   func(Diagnostic)
}

// SchemaMembers are the members of a tool that hold a JSON Schema, in the
// order Pass.Walk visits them.
var SchemaMembers = []string{"inputSchema", "outputSchema"}

// toolSchemas holds the subschemas of the tool being linted, found once for
// all the rules that walk them.
type toolSchemas struct {
	value map[string]any
	trees [2]schema.Tree
	built [2]bool
	memo  map[string]any
}

func (s *toolSchemas) reset(v map[string]any) {
	s.value, s.built = v, [2]bool{}
	for k, m := range s.memo {
		if r, ok := m.(ToolScratch); ok {
			r.ResetForTool()
		} else {
			delete(s.memo, k)
		}
	}
}

// ToolScratch is a value Memo keeps from one tool to the next of a worker
// instead of computing it again: the engine resets it when the tool
// changes. A cache of what rules find in a tool is one: made once per
// worker rather than once per tool, it costs no allocation per tool.
type ToolScratch interface{ ResetForTool() }

func (s *toolSchemas) tree(i int) *schema.Tree {
	if !s.built[i] {
		member := SchemaMembers[i]
		s.trees[i].Reset(s.value[member], "/"+member)
		s.built[i] = true
	}
	return &s.trees[i]
}

// Schema returns the subschemas of the tool's member ("inputSchema" or
// "outputSchema"), found once for every rule that walks them. Its nodes'
// pointers are relative to the tool ("/inputSchema/properties/a"). A member
// that is missing or not an object has none.
func (p *Pass) Schema(member string) *schema.Tree {
	for i, m := range SchemaMembers {
		if m == member {
			return p.schemas.tree(i)
		}
	}
	panic(fmt.Sprintf("lint: %q is not a schema member of a tool", member))
}

// Walk visits every subschema of the tool's inputSchema, then of its
// outputSchema, parents before children; returning false skips the
// subschemas below a node. Rules walk through it rather than on their own,
// so that the subschemas are found once for all of them.
func (p *Pass) Walk(fn func(n *schema.Node) bool) {
	for i := range SchemaMembers {
		p.schemas.tree(i).Walk(fn)
	}
}

// Memo returns what fn computes from the tool, computed once for all the
// rules that ask for it under the same key while the tool is linted (the
// texts of a tool that address the model, say, which several rules read).
// The key names what fn computes; prefix it with the rule family. A value
// that is a ToolScratch is made once and reset for each tool.
func (p *Pass) Memo(key string, fn func() any) any {
	if v, ok := p.schemas.memo[key]; ok {
		return v
	}
	v := fn()
	if p.schemas.memo == nil {
		p.schemas.memo = map[string]any{}
	}
	p.schemas.memo[key] = v
	return v
}

// Since reports whether a protocol version checked is v or newer: what v
// introduced applies to some client.
func (p *Pass) Since(v string) bool { return AtLeast(p.Protocol, v) }

// Before reports whether a protocol version checked is older than v: what
// v lifted still binds some client.
func (p *Pass) Before(v string) bool { return !AtLeast(p.oldest, v) }

// Versions describes the checked versions that Since(v) or Before(v)
// selects, for a message: "2026-07-28", "2025-06-18 to 2025-11-25".
func (p *Pass) Versions(since bool, v string) string {
	lo, hi := p.oldest, p.Protocol
	if since {
		lo = max(lo, v)
	} else {
		hi = ""
		for _, x := range Protocols {
			if x < v && x <= p.Protocol {
				hi = x
			}
		}
	}
	if lo == hi {
		return lo
	}
	return lo + " to " + hi
}

// InPlay reports whether the run judges the tool for consumer id: a
// selected rule protects it, in its default mode or because its opt-in
// rules were selected. A fix writes what every consumer in play takes
// (their profiles), so that fixing for one never produces what another
// selected one refuses: "items": {} for an array, say, is no fix when
// OpenAI's strict mode, which wants a type on every schema, is in play.
func (p *Pass) InPlay(id consumer.ID) bool { return p.inPlay[id] }

// Runs reports whether rule r runs in this run, for a rule that gives way
// to r (it withholds a fix r's would undo, or a finding r makes). r must
// be one of the rule's Defers: the relation is declared, not found out by
// asking. A pack can hold rules of another (openai's rules are in
// openai-strict too), so the question is asked of a rule, not a pack.
func (p *Pass) Runs(r *Rule) bool {
	if !slices.Contains(p.Rule.Defers, r) {
		panic(fmt.Sprintf("rule %s asks whether %s runs without declaring it in Defers", p.Rule.ID, r.ID))
	}
	return p.selected[r.ID]
}

// Option returns a rule option: the configured value, or the rule's default.
func (p *Pass) Option(name string) any { return option(p.Rule, p.options, name) }

// runView is what every kind of pass (Pass, ListPass, SurfacePass) sees of
// its run besides its rule and what it checks.
type runView struct {
	oldest  string         // the oldest protocol version checked
	options map[string]any // the rule's configured options
}

// option is the value of a rule's option: configured, or its default.
func option(r *Rule, configured map[string]any, name string) any {
	if v, ok := configured[name]; ok {
		return v
	}
	return r.Options[name]
}

// Report records a finding. Rule is filled in; a zero Severity means the
// rule's (a rule may report some findings more severely than its default,
// such as a missing name at an error where a badly spelled one is a warning).
func (p *Pass) Report(d Diagnostic) {
	d.Rule = p.Rule.ID
	p.report(d)
}

// Reportf records a finding at a tool-relative pointer.
func (p *Pass) Reportf(ptr string, format string, args ...any) {
	p.ReportFix(ptr, nil, format, args...)
}

// ReportFix records a finding with a fix (nil for none).
func (p *Pass) ReportFix(ptr string, fix *Fix, format string, args ...any) {
	p.report(Diagnostic{
		Rule:       p.Rule.ID,
		RelPointer: ptr,
		Message:    fmt.Sprintf(format, args...),
		Fix:        fix,
	})
}

// InputSchema returns the tool's input schema and whether the member exists.
func (p *Pass) InputSchema() (any, bool) {
	v, ok := p.Value["inputSchema"]
	return v, ok
}

// ListPass is one rule's view of a whole manifest.
type ListPass struct {
	Rule     *Rule
	Manifest *manifest.Manifest
	// Protocol is the newest version checked, as for Pass.
	Protocol string

	runView
	report func(*manifest.Tool, func() Diagnostic)
	names  *map[string]*manifest.Tool // shared by the run's list passes
}

// ToolNamed returns the first tool of the manifest with the name, or nil.
// The list rules of a run share one index of the names, made on first use:
// four of them kept a map of every name each.
func (p *ListPass) ToolNamed(name string) *manifest.Tool {
	if *p.names == nil {
		idx := make(map[string]*manifest.Tool, len(p.Manifest.Tools))
		for _, t := range p.Manifest.Tools {
			if _, ok := idx[t.Name]; !ok {
				idx[t.Name] = t
			}
		}
		*p.names = idx
	}
	return (*p.names)[name]
}

// Option returns a rule option, as Pass.Option.
func (p *ListPass) Option(name string) any { return option(p.Rule, p.options, name) }

// Reportf records a finding at a pointer relative to tool t.
func (p *ListPass) Reportf(t *manifest.Tool, ptr string, format string, args ...any) {
	p.Report(t, Diagnostic{
		RelPointer: ptr,
		Message:    fmt.Sprintf(format, args...),
	})
}

// Report records a finding about tool t, as Pass.Report: Rule is filled
// in, and a zero Severity means the rule's.
func (p *ListPass) Report(t *manifest.Tool, d Diagnostic) {
	p.report(t, func() Diagnostic { return d })
}

// ReportFunc records a finding about tool t that build makes when the run
// hands the tool's findings over, for a rule that may report on most
// tools: the run then holds a function per tool rather than every
// finding, its message and its fix, until the tool's turn comes. (Two
// name rules reporting on nine tools in ten of a large manifest held a
// third of the run's memory that way.) Build may run on any goroutine,
// after CheckList has returned, at most once per call; it must only read
// what it captured and the tool's Name. Rule is filled in, as for Report.
func (p *ListPass) ReportFunc(t *manifest.Tool, build func() Diagnostic) {
	p.report(t, build)
}
