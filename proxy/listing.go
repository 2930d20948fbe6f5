package proxy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcpfit/mcplint/convert"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/live"
	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/rules"
	"github.com/mcpfit/mcplint/schema"
)

// toolEntry is what the proxy knows of one tool it listed to the client.
type toolEntry struct {
	// name is the server's name for the tool, exposed the client's.
	name, exposed string
	// input and output are the server's own schemas, as it sent them (nil
	// when it sent none); shown is the output schema the client was given.
	input, output, shown []byte

	once                         sync.Once
	inputS, outputS, shownS      *jsonschema.Schema
	headers                      []paramHeader // x-mcp-header properties of input
	inputErr, outputErr, showErr error
}

// compile compiles the entry's schemas once, when a call first needs them.
func (t *toolEntry) compile() {
	t.once.Do(func() {
		t.inputS, t.inputErr = compileRaw(t.input)
		t.outputS, t.outputErr = compileRaw(t.output)
		if bytes.Equal(t.shown, t.output) {
			t.shownS, t.showErr = t.outputS, t.outputErr
		} else {
			t.shownS, t.showErr = compileRaw(t.shown)
		}
		t.headers, _ = paramHeaders(t.input)
	})
}

// compileRaw compiles a schema as mcplint does (package schema), nil for
// none.
func compileRaw(raw []byte) (*jsonschema.Schema, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	return schema.Compile(v)
}

// toolTable maps the client's tool names to the entries of the last two
// listings: a call made while a new listing comes in still finds its tool.
type toolTable struct {
	mu        sync.RWMutex
	cur, prev map[string]*toolEntry
	listed    bool
}

func newToolTable() *toolTable {
	return &toolTable{cur: map[string]*toolEntry{}, prev: map[string]*toolEntry{}}
}

// add records the entries of one page; first starts a new listing.
func (t *toolTable) add(entries []*toolEntry, first bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if first {
		t.prev, t.cur = t.cur, make(map[string]*toolEntry, len(entries))
	}
	for _, e := range entries {
		t.cur[e.exposed] = e
	}
	t.listed = true
}

// get finds a tool by the name the client calls it.
func (t *toolTable) get(exposed string) (*toolEntry, bool) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	if e, ok := t.cur[exposed]; ok {
		return e, true
	}
	e, ok := t.prev[exposed]
	return e, ok
}

func (t *toolTable) hasListing() bool {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.listed
}

// repairer repairs tools/list results for one client, keeping the names
// it gives over the conversation. One listing page is repaired at a time.
type repairer struct {
	mu      sync.Mutex
	adapter *convert.Adapter
	rules   []*lint.Rule
	unsafe  bool
	limits  manifest.Limits
	list    live.Limits
	log     *changeLog
	// http says the server is reached over Streamable HTTP.
	http bool
	// pages and size count the pages of the current listing and their
	// bytes, for list.Pages and list.ListSize.
	pages int
	size  int64
}

// mirrors reports whether the server's x-mcp-header annotations are in
// force: it is reached over Streamable HTTP, where from protocol
// 2026-07-28 a client mirrors the arguments they mark into headers, and
// must drop a tool whose annotations are invalid (2026-07-28,
// basic/transports/streamable-http, "Custom Headers from Tool
// Parameters"). A protocol not known yet counts as one that has them.
func (r *repairer) mirrors(protocol string) bool {
	return r.http && (protocol == "" || !lint.ValidProtocol(protocol) || lint.AtLeast(protocol, "2026-07-28"))
}

// fixRules are the IDs of the rules whose fixes a listing gets: the
// rules with a fix among those of the default selection and the client's
// pack.
func fixRules(catalogue []*lint.Rule, pack string) ([]string, error) {
	cfg := lint.Config{}
	if pack != "" && slices.Contains(lint.Packs(catalogue), pack) {
		cfg.ExtendSelect = []string{pack}
	}
	rules, err := lint.Select(catalogue, cfg)
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, r := range rules {
		if r.Fix != lint.NoFix {
			ids = append(ids, r.ID)
		}
	}
	return ids, nil
}

// repair returns a tools/list result as the client takes it, and the
// entries of its tools. first says the page starts a listing; protocol is
// the negotiated version ("" when unknown). A result that is not a tool
// list is returned as it is, with no entries, and said in the log.
func (r *repairer) repair(result []byte, first bool, protocol string) ([]byte, []*toolEntry) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if first {
		r.adapter.Restart()
		r.pages, r.size = 0, 0
	}
	r.pages++
	r.size += int64(len(result))
	client := label(r.adapter.Client())
	switch {
	case r.pages > r.list.Pages:
		r.log.reportf("", "listing", client, "the tool list takes more than %d pages, the limit: the pages past it were passed on unrepaired", r.list.Pages)
		return result, nil
	case r.size > r.list.ListSize:
		r.log.reportf("", "listing", client, "the tool list is larger than the limit of %s: the pages past it were passed on unrepaired", manifest.SizeText(r.list.ListSize))
		return result, nil
	}
	m, err := r.limits.Load("tools/list", result)
	if err != nil || m.Shape.Foreign() {
		r.log.reportf("", "listing", client, "a tools/list result is not a tool list, so it was passed on as it is: %v", err)
		return result, nil
	}
	if len(m.Tools) > r.list.Tools {
		r.log.reportf("", "listing", client, "a tools/list page has more than %d tools, the limit: it was passed on unrepaired", r.list.Tools)
		return result, nil
	}
	fixed := r.fix(m, protocol, client)
	tools, err := convert.FromManifest(fixed)
	if err != nil {
		r.log.reportf("", "listing", client, "a tools/list result has a tool mcplint cannot read, so the listing was passed on with only the fixes: %v", err)
		return fixed.Src, r.entries(m, fixed, nil)
	}
	adapted, warns := r.adapter.Adapt(tools)
	for _, w := range warns {
		kind := "schema"
		if w.Pointer == "/name" {
			kind = "rename"
		}
		r.log.report(Change{Tool: m.Tools[w.Index].Name, Kind: kind, Client: client, Message: w.Message + " (at " + w.Pointer + ")"})
	}
	var sources, kept []convert.Tool
	items := make([][]byte, 0, len(tools))
	var entryFrom []int
	for i, a := range adapted {
		if a.Err != nil {
			r.log.reportf(m.Tools[i].Name, "dropped", client, "left out of the listing: no client can call it (%v)", a.Err)
			continue
		}
		if a.SchemaChanged && !slices.ContainsFunc(warns, func(w convert.Warning) bool { return w.Index == i && w.Pointer != "/name" }) {
			r.log.reportf(m.Tools[i].Name, "schema", client, "input schema rewritten into the form the client takes, accepting the same arguments (%s)", rootChanges(tools[i].InputSchema, a.InputSchema))
		}
		if r.mirrors(protocol) {
			if _, invalid := paramHeaders(rawMember(m, i, "/inputSchema")); invalid != "" {
				r.log.reportf(m.Tools[i].Name, "dropped", client, "left out of the listing, as the specification has a client of a Streamable HTTP server do with a tool whose x-mcp-header annotations are invalid: %s", invalid)
				continue
			}
		}
		b, err := r.item(fixed, i, a)
		if err != nil {
			r.log.reportf(m.Tools[i].Name, "dropped", client, "left out of the listing: %v", err)
			continue
		}
		items = append(items, b)
		sources, kept = append(sources, tools[i]), append(kept, a.Tool)
		entryFrom = append(entryFrom, i)
	}
	if refused, err := r.adapter.Refusals(sources, kept); err == nil {
		for _, w := range refused {
			rule := ""
			if i := strings.LastIndex(w.Message, " ["); i >= 0 && strings.HasSuffix(w.Message, "]") {
				rule = strings.SplitN(w.Message[i+2:len(w.Message)-1], ",", 2)[0]
			}
			r.log.report(Change{Tool: m.Tools[w.Index].Name, Kind: "refused", Rule: rule, Client: client, Message: "still " + w.Message + " (at " + w.Pointer + ")"})
		}
	}
	list := append([]byte{'['}, bytes.Join(items, []byte{','})...)
	list = append(list, ']')
	out, err := setMember(fixed.Src, "tools", list)
	if err != nil {
		return fixed.Src, r.entries(m, fixed, nil)
	}
	names := make([]string, len(kept))
	for j, a := range kept {
		names[j] = a.Name
	}
	return out, r.entries(m, fixed, &keptTools{from: entryFrom, names: names})
}

// keptTools are the tools a repaired listing keeps: the index of each in
// the server's listing, and its name for the client.
type keptTools struct {
	from  []int
	names []string
}

// item is the bytes of one tool of the repaired listing: as the fixes
// left it when the client takes it as it is, else written anew.
func (r *repairer) item(fixed *manifest.Manifest, i int, a convert.Adapted) ([]byte, error) {
	if !a.Renamed && !a.SchemaChanged {
		if start, end, ok := fixed.Tools[i].Span(""); ok {
			return fixed.Src[start:end], nil
		}
	}
	return convert.MCPToolJSON(a.Tool)
}

// fix applies the fixes of the client's rules to the listing, saying once
// per tool and rule what each did. When fixing fails the listing is
// returned as it was.
func (r *repairer) fix(m *manifest.Manifest, protocol, client string) *manifest.Manifest {
	ids, err := fixRules(r.rules, r.adapter.Pack())
	if err != nil || len(ids) == 0 {
		return m
	}
	cfg := lint.Config{Select: ids, UnsafeFixes: r.unsafe}
	if lint.ValidProtocol(protocol) {
		cfg.Protocol = protocol
	}
	linter, err := lint.New(r.rules, cfg)
	if err != nil {
		return m
	}
	found, err := linter.Lint(m)
	if err != nil {
		return m
	}
	res, err := linter.Fix(m)
	if err != nil || len(res.Manifest.Tools) != len(m.Tools) || bytes.Equal(res.Src, m.Src) {
		return m
	}
	for _, d := range found {
		if d.Fix == nil || !(d.Fix.Safe || r.unsafe) || d.ToolIndex >= len(m.Tools) {
			continue
		}
		if bytes.Equal(toolBytes(m, d.ToolIndex), toolBytes(res.Manifest, d.ToolIndex)) {
			continue
		}
		what := d.Fix.Message
		if what == "" {
			what = d.Message
		}
		r.log.report(Change{Tool: m.Tools[d.ToolIndex].Name, Kind: "fix", Rule: d.Rule, Client: client, Message: "fixed " + d.RelPointer + ": " + what})
	}
	return res.Manifest
}

// rootChanges says which members of a schema's root a rewrite removed,
// added or changed: "\"$schema\" removed, \"properties\" changed".
func rootChanges(old, new map[string]any) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(old)) {
		if v, ok := new[k]; !ok {
			parts = append(parts, strconv.Quote(k)+" removed")
		} else if !schema.Equal(old[k], v) {
			parts = append(parts, strconv.Quote(k)+" changed")
		}
	}
	for _, k := range slices.Sorted(maps.Keys(new)) {
		if _, ok := old[k]; !ok {
			parts = append(parts, strconv.Quote(k)+" added")
		}
	}
	if len(parts) == 0 {
		return "no member of its root changed"
	}
	if len(parts) > 4 {
		parts = append(parts[:4], "…")
	}
	return strings.Join(parts, ", ")
}

// toolBytes is the source of tool i, nil when it has none: compared as
// bytes, the sources of a listing's tools are not copied for each fix.
func toolBytes(m *manifest.Manifest, i int) []byte {
	start, end, ok := m.Tools[i].Span("")
	if !ok {
		return nil
	}
	return m.Src[start:end]
}

// entries makes the entries of a listing: the server's own schemas from
// the listing it sent (m), the output schema the client was given from the
// fixed one, and the client's names (kept nil: the fixed listing was
// passed on, under the fixed names).
func (r *repairer) entries(m, fixed *manifest.Manifest, kept *keptTools) []*toolEntry {
	if kept == nil {
		kept = &keptTools{}
		for i, t := range fixed.Tools {
			kept.from = append(kept.from, i)
			kept.names = append(kept.names, t.Name)
		}
	}
	out := make([]*toolEntry, 0, len(kept.from))
	for j, i := range kept.from {
		e := &toolEntry{name: m.Tools[i].Name, exposed: kept.names[j]}
		e.input = rawMember(m, i, "/inputSchema")
		e.output = rawMember(m, i, "/outputSchema")
		e.shown = rawMember(fixed, i, "/outputSchema")
		out = append(out, e)
	}
	return out
}

// rawMember is the bytes of a member of tool i, nil when it has none (or
// the manifest is not JSON, which a tools/list result always is).
func rawMember(m *manifest.Manifest, i int, ptr string) []byte {
	if m.Format != manifest.JSON {
		return nil
	}
	start, end, ok := m.Tools[i].Span(ptr)
	if !ok {
		return nil
	}
	return m.Src[start:end]
}

// paramHeader is an input property that the 2026-07-28 Streamable HTTP
// transport mirrors into a request header (x-mcp-header): a client over
// HTTP sends Mcp-Param-{name} with the argument at path.
type paramHeader struct {
	name string
	path []string
}

// paramHeaders finds the x-mcp-header annotations of an input schema, as
// package rules judges them (rules.HeaderAnnotations, the check of rule
// x-mcp-header-valid). invalid says what makes them invalid, "" when
// nothing does; an invalid set mirrors no header: Mcp-Param-{name} with
// a name that is no HTTP token is a request net/http refuses to send, and
// a client drops such a tool anyway.
func paramHeaders(input []byte) (headers []paramHeader, invalid string) {
	// The key may be spelled with \u escapes, which every decoder reads
	// as the plain key: only a schema with neither is surely without one.
	if len(input) == 0 || !bytes.Contains(input, []byte("x-mcp-header")) && !bytes.Contains(input, []byte(`\u`)) {
		return nil, ""
	}
	dec := json.NewDecoder(bytes.NewReader(input))
	dec.UseNumber()
	var root any
	if err := dec.Decode(&root); err != nil {
		return nil, ""
	}
	var problems []string
	for _, a := range rules.HeaderAnnotations(root) {
		if len(a.Problems) > 0 {
			label := "x-mcp-header at " + a.Pointer
			if a.Pointer == "" {
				label = "x-mcp-header at the root"
			}
			problems = append(problems, label+": "+strings.Join(a.Problems, "; "))
			continue
		}
		headers = append(headers, paramHeader{name: a.Name(), path: a.Path()})
	}
	if len(problems) > 0 {
		return nil, strings.Join(problems, "; ")
	}
	return headers, ""
}

// String describes an entry in tests and errors.
func (t *toolEntry) String() string { return fmt.Sprintf("%s (as %s)", t.name, t.exposed) }
