package live

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpfit/mcplint/internal/english"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/schema"
)

// IDs of the rules only a live server can break (package rules documents
// them). Check runs those the linter selected.
const (
	RuleListResultValid  = "list-result-valid"
	RuleListOrderStable  = "list-order-stable"
	RuleStdioStdoutClean = "stdio-stdout-clean"
)

// Check lints a listing, in every era it holds (Listing.Eras): the
// linter's rules over the tools, plus the live rules it selected over
// what the conversation showed. Each finding names in Eras the versions
// of the eras it was found in; one found in both eras is reported once,
// placed in the first era's listing. Diagnostics are sorted as lint sorts
// them, the first era's first.
func Check(linter *lint.Linter, l *Listing) ([]lint.Diagnostic, error) {
	return checkEras(context.Background(), func(*Listing) (*lint.Linter, error) { return linter, nil }, l)
}

// checkEras lints each era of l with the linter linterFor gives it, and
// merges the findings.
func checkEras(ctx context.Context, linterFor func(*Listing) (*lint.Linter, error), l *Listing) ([]lint.Diagnostic, error) {
	var all []lint.Diagnostic
	at := map[string]int{} // a finding's key: its index in all
	for _, era := range l.Eras() {
		linter, err := linterFor(era)
		if err != nil {
			return nil, err
		}
		ds, err := checkListing(ctx, linter, era)
		if err != nil {
			return nil, err
		}
		for _, d := range ds {
			k := eraKey(&d)
			if i, ok := at[k]; ok && !slices.Contains(all[i].Eras, era.Server.Protocol) {
				all[i].Eras = append(all[i].Eras, era.Server.Protocol)
				continue
			}
			d.Eras = []string{era.Server.Protocol}
			at[k] = len(all)
			all = append(all, d)
		}
	}
	return all, nil
}

// eraKey says what a finding is about, whichever era's listing it points
// into: the rule, the tool by name (its index may differ), the place and
// the message.
func eraKey(d *lint.Diagnostic) string {
	where := d.Pointer
	if d.ToolIndex >= 0 {
		where = "tool " + strconv.Quote(d.Tool) + d.RelPointer
	}
	return d.Rule + "\x00" + d.Severity.String() + "\x00" + where + "\x00" + d.Message
}

func checkListing(ctx context.Context, linter *lint.Linter, l *Listing) ([]lint.Diagnostic, error) {
	diags, err := linter.LintContext(ctx, l.Manifest)
	if err != nil {
		return nil, err
	}
	// The live rules' findings go through the engine as its own do:
	// suppressions, severities, consumers, order.
	var found []lint.Diagnostic
	add := func(id string, d lint.Diagnostic) {
		d.Rule = id
		if d.File == "" {
			d.File = l.Manifest.Path
		}
		found = append(found, d)
	}
	// The pages are checked against the version the server negotiated,
	// unless the configuration fixes one.
	protocol := linter.Config.Protocol
	if protocol == "" {
		protocol = l.Server.Protocol
	}
	for i, off := range l.resultOffsets {
		for _, p := range resultProblems(l.Src, off, protocol) {
			add(RuleListResultValid, l.placeAt(i, p))
		}
	}
	if msg := orderChange(l.Order, l.Again); msg != "" {
		d := lint.Diagnostic{Message: msg, ToolIndex: -1}
		if t := firstMoved(l.Manifest, l.Again); t != nil {
			d = placeTool(t)
			d.Message = msg
		}
		add(RuleListOrderStable, d)
	}
	if l.StdoutLines > 0 {
		add(RuleStdioStdoutClean, lint.Diagnostic{
			ToolIndex: -1,
			Message: fmt.Sprintf("the server wrote text that is not JSON-RPC on stdout (%d line%s, first: %q); clients read stdout as the protocol stream: write logs to stderr",
				l.StdoutLines, english.Plural(l.StdoutLines, "", "s"), l.Stdout[0]),
		})
	}
	return linter.Add(diags, found...), nil
}

// problem is a finding on a page's result, at a pointer relative to it.
type problem struct {
	ptr, msg string
}

// resultProblems checks the result at off in src against ListToolsResult
// of protocol.
func resultProblems(src []byte, off int, protocol string) []problem {
	var v any
	dec := json.NewDecoder(strings.NewReader(string(src[off:])))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return nil // the loader refused it already
	}
	res, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	var out []problem
	if c, ok := res["nextCursor"]; ok {
		if _, isString := c.(string); !isString {
			out = append(out, problem{"/nextCursor", fmt.Sprintf("\"nextCursor\" is %s, not a string; a client cannot ask for the next page", schema.KindWithArticle(c))})
		}
	}
	if tools, ok := res["tools"].([]any); ok {
		for i, t := range tools {
			if _, isObj := t.(map[string]any); !isObj {
				out = append(out, problem{fmt.Sprintf("/tools/%d", i), fmt.Sprintf("tools[%d] is %s, not a tool object", i, schema.KindWithArticle(t))})
			}
		}
	}
	if !lint.AtLeast(protocol, "2026-07-28") {
		return out
	}
	const why = "; protocol %s requires it in every ListToolsResult"
	switch rt, ok := res["resultType"]; {
	case !ok:
		out = append(out, problem{"", fmt.Sprintf("the result has no \"resultType\"; add \"resultType\": \"complete\""+why, protocol)})
	case rt != "complete":
		if _, isString := rt.(string); !isString {
			out = append(out, problem{"/resultType", fmt.Sprintf("\"resultType\" is %s, not a string; a tool list is \"complete\"", schema.KindWithArticle(rt))})
		} else if rt != "complete" {
			out = append(out, problem{"/resultType", fmt.Sprintf("\"resultType\" is %q; a tools/list result is \"complete\"", rt)})
		}
	}
	switch ttl, ok := res["ttlMs"]; {
	case !ok:
		out = append(out, problem{"", fmt.Sprintf("the result has no \"ttlMs\"; add \"ttlMs\" (how many milliseconds a client may cache the list, 0 for not at all)"+why, protocol)})
	default:
		n, isNum := ttl.(json.Number)
		if i, err := n.Int64(); !isNum || err != nil || i < 0 {
			out = append(out, problem{"/ttlMs", fmt.Sprintf("\"ttlMs\" is %s; it must be a non-negative integer of milliseconds", describe(ttl))})
		}
	}
	switch cs, ok := res["cacheScope"]; {
	case !ok:
		out = append(out, problem{"", fmt.Sprintf("the result has no \"cacheScope\"; add \"cacheScope\": \"public\" (or \"private\" when the list depends on the user)"+why, protocol)})
	case cs != "public" && cs != "private":
		out = append(out, problem{"/cacheScope", fmt.Sprintf("\"cacheScope\" is %s; it must be \"public\" or \"private\"", describe(cs))})
	}
	return out
}

// placeAt turns a problem on page i's result into a located diagnostic.
func (l *Listing) placeAt(i int, p problem) lint.Diagnostic {
	off := l.resultOffsets[i]
	if p.ptr != "" {
		if span, ok := memberSpan(l.Src[off:], p.ptr); ok {
			off += span
		}
	}
	pos := l.Manifest.Position(off)
	return lint.Diagnostic{
		Message: p.msg, ToolIndex: -1, Pointer: "/result" + p.ptr,
		File: l.Manifest.Path, Line: pos.Line, Column: pos.Column, Offset: off,
	}
}

// memberSpan finds where the value at ptr (one or two levels: /key or
// /tools/N) starts in the JSON object doc.
func memberSpan(doc []byte, ptr string) (int, bool) {
	parts := strings.Split(strings.TrimPrefix(ptr, "/"), "/")
	if parts[0] == "tools" && len(parts) == 2 {
		m, err := manifest.Load("", doc)
		if err != nil {
			return 0, false
		}
		var i int
		if _, err := fmt.Sscan(parts[1], &i); err == nil && i < len(m.Tools) {
			return m.Tools[i].Locate("").Offset, true
		}
		return 0, false
	}
	// A top-level member: find its key in the raw object.
	dec := json.NewDecoder(strings.NewReader(string(doc)))
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return 0, false
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
			continue
		case json.Delim('}'), json.Delim(']'):
			depth--
			continue
		}
		if s, ok := tok.(string); ok && depth == 1 && s == parts[0] {
			// InputOffset is just past the key; the value follows the colon.
			at := int(dec.InputOffset())
			for at < len(doc) && (doc[at] == ' ' || doc[at] == ':' || doc[at] == '\t' || doc[at] == '\n' || doc[at] == '\r') {
				at++
			}
			return at, true
		}
		if depth == 1 {
			// Skip the member's value.
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return 0, false
			}
		}
	}
}

func describe(v any) string {
	return clip(schema.Compact(v))
}

// orderChange says how two listings differ, or "" when they agree (or
// there is no second listing).
func orderChange(first, again []string) string {
	if again == nil || equal(first, again) {
		return ""
	}
	if len(first) != len(again) {
		return fmt.Sprintf("two tools/list calls returned different lists (%s, then %d); a server should return the same tools in the same order until it sends notifications/tools/list_changed", english.Count(len(first), "tool"), len(again))
	}
	return fmt.Sprintf("two tools/list calls returned the tools in different orders (%s, then %s); return them in a deterministic order (sort them) so clients and prompt caches can reuse the list", names(first), names(again))
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func names(list []string) string {
	if len(list) > 6 {
		return strings.Join(list[:6], ", ") + ", …"
	}
	return strings.Join(list, ", ")
}

// firstMoved is the first tool of m whose position differs in again.
func firstMoved(m *manifest.Manifest, again []string) *manifest.Tool {
	for i, t := range m.Tools {
		if i >= len(again) || again[i] != t.Name {
			return t
		}
	}
	return nil
}

func placeTool(t *manifest.Tool) lint.Diagnostic {
	pos := t.Locate("")
	return lint.Diagnostic{
		File: t.M.Path, Line: pos.Line, Column: pos.Column, Offset: pos.Offset,
		Tool: t.Name, ToolIndex: t.Index, Pointer: t.DocPointer(""),
	}
}
