package rules

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mcpfit/mcplint/consumer"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/pointer"
	"github.com/mcpfit/mcplint/schema"
)

// The profile walk: one walk of a tool checks it against a consumer's
// profile (consumer.Profile) and finds every place that breaks one of its
// lines. The rules of the client packs are names over it: each reports the
// violations of the lines its Consumers name (consumer.Refusal.Line), with
// its own message and fix, so that what one consumer refuses is found once,
// by data, whichever rule reports it, and a keyword outside an allowlist is
// reported although no refusal of it was ever seen.

// violation is one place where a tool breaks a line of a profile.
type violation struct {
	line *consumer.Line
	// node is the schema the line is about; nil for the tool itself (its
	// name, its description).
	node *schema.Node
	// keyword is the keyword at fault, or the one a Requires line misses.
	keyword string
}

// missing reports whether the violation is a keyword a Requires line
// demands and the schema lacks (or has with another value).
func (v violation) missing() bool { return v.line.Kind == consumer.Requires }

// pointer is where the violation is reported, relative to the tool: the
// keyword at fault, or the schema that misses one.
func (v violation) pointer() string {
	switch {
	case v.node == nil:
		return "/" + v.keyword
	case v.missing():
		return v.node.Pointer()
	}
	return v.node.Pointer() + "/" + pointer.Escape(v.keyword)
}

// violationsOf returns the violations of the named lines of consumer id's
// profile in the tool of p, found once per tool and set of lines for every
// rule that reads them (a rule on by default reads one line of an opt-in
// profile, and need not pay for the whole walk). Only the tool's name,
// description and inputSchema are read: they are what a consumer's
// function declaration carries. The slice is shared by every rule that
// asks for the same lines of the tool: a caller that filters it filters a
// copy.
func violationsOf(p *lint.Pass, id consumer.ID, lines ...string) []violation {
	c := p.Memo("profile", newViolationCache).(*violationCache)
	k := violationKey{id: id, lines: lines[0]}
	if len(lines) > 1 {
		k.lines = strings.Join(lines, ",")
	}
	for _, e := range c.found {
		if e.key == k {
			return e.vs
		}
	}
	var vs []violation
	if prof := consumer.ProfileOf(id); prof != nil {
		vs = findViolations(p, prof, lines)
	}
	c.found = append(c.found, violationEntry{k, vs})
	return vs
}

// violationCache holds, for the tool being linted, the violations found
// so far, by consumer and lines: a Pass.Memo kept from tool to tool
// (lint.ToolScratch), since a run asks for a few sets of lines of every
// tool and a map of them per tool was a tenth of a run's memory.
type violationCache struct {
	found []violationEntry
}

type violationEntry struct {
	key violationKey
	vs  []violation
}

type violationKey struct {
	id    consumer.ID
	lines string
}

func newViolationCache() any { return &violationCache{} }

// ResetForTool forgets the last tool's violations, keeping the storage.
func (c *violationCache) ResetForTool() {
	clear(c.found)
	c.found = c.found[:0]
}

// findViolations walks the tool for the profile's lines with the given IDs.
func findViolations(p *lint.Pass, prof *consumer.Profile, ids []string) []violation {
	want := func(l *consumer.Line) bool { return slices.Contains(ids, l.ID) }
	var out []violation
	if l := prof.NameLine(); l != nil && want(l) {
		if name, ok := p.Value["name"].(string); ok && name != "" && !l.NameAllows(name) {
			out = append(out, violation{line: l, keyword: "name"})
		}
	}
	if l := prof.LimitOf("description"); l != nil && want(l) {
		if d, ok := p.Value["description"].(string); ok && utf8.RuneCountInString(d) > l.Max {
			out = append(out, violation{line: l, keyword: "description"})
		}
	}
	var values, requires []*consumer.Line
	keywords := false
	for i := range prof.Lines {
		l := &prof.Lines[i]
		if !want(l) {
			continue
		}
		switch l.Kind {
		case consumer.Values:
			values = append(values, l)
		case consumer.Requires:
			requires = append(requires, l)
		case consumer.Keywords:
			keywords = keywords || l.Refuse
		}
	}
	keywords = keywords || prof.Unlisted != nil && want(prof.Unlisted)
	if !keywords && len(values) == 0 && len(requires) == 0 {
		return out
	}
	p.Schema("inputSchema").Walk(func(n *schema.Node) bool {
		out = nodeViolations(out, prof, n, placeOf(n), isMember(n), keywords, want, values, requires)
		return true
	})
	return out
}

// placeOf says where n is: the root of its walk, or below.
func placeOf(n *schema.Node) consumer.Place {
	if n.Parent == nil {
		return consumer.Root
	}
	return consumer.Nested
}

// nodeViolations appends the violations of one schema node, at place at,
// a property's or array's elements (member) or not.
func nodeViolations(out []violation, prof *consumer.Profile, n *schema.Node, at consumer.Place, member, keywords bool, want func(*consumer.Line) bool, values, requires []*consumer.Line) []violation {
	s := n.Value
	if keywords {
		// Most schemas break no keyword line: the keys are sorted only
		// when one does.
		var found []string
		for k := range s {
			if l := prof.Denied(k, at); l != nil && want(l) {
				found = append(found, k)
			}
		}
		schema.SortKeywords(found)
		for _, k := range found {
			out = append(out, violation{line: prof.Denied(k, at), node: n, keyword: k})
		}
	}
	for _, l := range values {
		k := l.Keywords[0]
		v, ok := s[k]
		if !ok || !l.Applies(at, member) {
			continue
		}
		if refusing, ok := prof.ValueAllowed(k, schema.Types(s), v); !ok && refusing == l {
			out = append(out, violation{line: l, node: n, keyword: k})
		}
	}
	for _, l := range requires {
		if requirementBroken(l, n, at, member) {
			out = append(out, violation{line: l, node: n, keyword: l.Keywords[0]})
		}
	}
	return out
}

// isMember reports whether n is a property's schema or an array's element
// schema.
func isMember(n *schema.Node) bool {
	return n.Keyword == "properties" && n.Name != "" || n.Keyword == "items" && n.Index < 0
}

// requirementBroken reports whether the schema at n breaks the Requires
// line l.
func requirementBroken(l *consumer.Line, n *schema.Node, at consumer.Place, member bool) bool {
	s := n.Value
	if !l.Applies(at, member) || l.Type != "" && !schema.HasType(s, l.Type) {
		return false
	}
	if len(l.When) > 0 && !slices.ContainsFunc(l.When, func(k string) bool { _, ok := s[k]; return ok }) {
		return false
	}
	if slices.ContainsFunc(l.Unless, func(k string) bool { _, ok := s[k]; return ok }) {
		return false
	}
	v, ok := s[l.Keywords[0]]
	switch {
	case !ok:
		return true
	case len(l.Values) > 0:
		return schema.Compact(v) != l.Values[0]
	case (l.NotFalse || l.Schema) && v == false:
		return true
	case l.Schema:
		_, isObject := v.(map[string]any)
		return !isObject && v != true
	case l.NonEmpty:
		switch x := v.(type) {
		case map[string]any:
			return len(x) == 0
		case []any:
			return len(x) == 0
		}
	}
	return false
}

// below reports whether n, or a schema above it, is held by one of kws.
func below(n *schema.Node, kws map[string]bool) bool {
	for ; n != nil; n = n.Parent {
		if kws[n.Keyword] {
			return true
		}
	}
	return false
}

// byNode splits violations, in walk order, into runs of one schema each.
func byNode(vs []violation) [][]violation {
	var out [][]violation
	for i := 0; i < len(vs); {
		j := i + 1
		for j < len(vs) && vs[j].node == vs[i].node {
			j++
		}
		out = append(out, vs[i:j])
		i = j
	}
	return out
}

// lineFinding is one place that breaks lines a rule reports, with the
// consumers whose lines it breaks.
type lineFinding struct {
	violation
	consumers []consumer.Refusal
}

// ruleFindings returns the places where the tool breaks the profile lines
// the pass's rule reports (its Consumers' Line; only those named, when
// lines are given), each once, with the consumers that refuse it there.
func ruleFindings(p *lint.Pass, lines ...string) []lineFinding {
	var out []lineFinding
	for _, r := range p.Rule.Consumers {
		if r.Line == "" || len(lines) > 0 && !slices.Contains(lines, r.Line) {
			continue
		}
		for _, v := range violationsOf(p, r.Consumer, r.Line) {
			// A tool has few findings: a search is cheaper than an index.
			i := slices.IndexFunc(out, func(f lineFinding) bool {
				return f.node == v.node && f.keyword == v.keyword && f.missing() == v.missing()
			})
			if i < 0 {
				out = append(out, lineFinding{violation: v})
				i = len(out) - 1
			}
			out[i].consumers = append(out[i].consumers, r)
		}
	}
	for i := range out {
		if len(out[i].consumers) == len(p.Rule.Consumers) {
			// Every consumer of the rule: its own list, shared rather
			// than copied into each finding.
			out[i].consumers = p.Rule.Consumers
		}
	}
	return out
}

// introduces reports whether the schema after, written at ptr in place of
// before, breaks a line of the profile of a consumer in play (Pass.InPlay)
// that before did not: a fix must not trade one consumer's refusal for
// another's. member says whether the schema at ptr is a property's or an
// array's elements. Only what a schema lacks or a value it has count
// (Requires and Values lines): a keyword a fix writes for another rule to
// rewrite (gemini-ref's allOf, which gemini-unsupported-keyword merges) is
// a step, not a refusal.
func introduces(p *lint.Pass, ptr string, member bool, before, after map[string]any) bool {
	for _, prof := range consumer.Profiles {
		if !p.InPlay(prof.Consumer) {
			continue
		}
		had := map[string]bool{}
		for _, v := range subtreeViolations(prof, ptr, member, before) {
			had[v.line.ID+" "+v.pointer()] = true
		}
		for _, v := range subtreeViolations(prof, ptr, member, after) {
			if !had[v.line.ID+" "+v.pointer()] && v.line.Action.Loses() && (v.line.Kind == consumer.Requires || v.line.Kind == consumer.Values) {
				return true
			}
		}
	}
	return false
}

// subtreeViolations are the violations of the Requires and Values lines
// of prof in schema s, found at ptr (the root of inputSchema when ptr is
// "/inputSchema"): the only ones introduces counts, so keyword lines,
// a lookup of every key of every node, are not walked.
func subtreeViolations(prof *consumer.Profile, ptr string, member bool, s map[string]any) []violation {
	var values, requires []*consumer.Line
	for i := range prof.Lines {
		switch l := &prof.Lines[i]; l.Kind {
		case consumer.Values:
			values = append(values, l)
		case consumer.Requires:
			requires = append(requires, l)
		}
	}
	all := func(*consumer.Line) bool { return true }
	var out []violation
	schema.Walk(s, ptr, func(n *schema.Node) bool {
		at, m := placeOf(n), isMember(n)
		if n.Parent == nil {
			// The subtree's root is not always the schema's.
			if ptr != "/inputSchema" {
				at = consumer.Nested
			}
			m = member
		}
		out = nodeViolations(out, prof, n, at, m, false, all, values, requires)
		return true
	})
	return out
}
