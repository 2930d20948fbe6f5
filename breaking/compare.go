package breaking

import (
	"fmt"
	"strconv"

	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
)

// Report is what Compare found, split by the manifest the positions refer
// to.
type Report struct {
	// New holds the findings located in the new manifest, Old those about
	// things that exist only in the old one. Each is sorted.
	New, Old []lint.Diagnostic
}

// All returns every finding, new manifest's first.
func (r *Report) All() []lint.Diagnostic {
	return append(append([]lint.Diagnostic{}, r.New...), r.Old...)
}

// Compare reports the changes from old to new that the configuration
// selects. cfg's Select, ExtendSelect and Ignore name rules of Rules or
// their packs (an empty Select means DefaultPacks); Severity overrides
// severities; Protocol and Options are not used. An error is a tool that
// cannot be decoded or a selection naming an unknown rule.
func Compare(old, new *manifest.Manifest, cfg lint.Config) (*Report, error) {
	selected, err := Select(cfg)
	if err != nil {
		return nil, err
	}
	c := &comparer{on: map[*lint.Rule]bool{}, cfg: cfg, old: old, rep: &Report{}}
	for _, r := range selected {
		c.on[r] = true
	}
	if err := c.run(new); err != nil {
		return nil, err
	}
	lint.Sort(c.rep.New)
	lint.Sort(c.rep.Old)
	return c.rep, nil
}

// Select returns the rules of Rules a configuration turns on: those lint
// would, with DefaultPacks as the default selection.
func Select(cfg lint.Config) ([]*lint.Rule, error) {
	if len(cfg.Select) == 0 {
		cfg.Select = DefaultPacks
	}
	return lint.Select(Rules, cfg)
}

type comparer struct {
	on  map[*lint.Rule]bool
	cfg lint.Config
	old *manifest.Manifest
	rep *Report
}

// report records a finding at tool-relative pointer ptr of tool t, which
// belongs to the old or the new manifest.
func (c *comparer) report(r *lint.Rule, t *manifest.Tool, ptr, format string, args ...any) {
	if !c.on[r] {
		return
	}
	pos := t.Locate(ptr)
	d := lint.Diagnostic{
		Rule: r.ID, Severity: r.Severity,
		Tool: t.Name, ToolIndex: t.Index,
		Pointer: t.DocPointer(ptr), File: t.M.Path,
		Line: pos.Line, Column: pos.Column, Offset: pos.Offset,
		Message:    fmt.Sprintf(format, args...),
		RelPointer: ptr,
	}
	if s, ok := c.cfg.Severity[r.ID]; ok {
		d.Severity = s
	}
	if t.M == c.old {
		c.rep.Old = append(c.rep.Old, d)
	} else {
		c.rep.New = append(c.rep.New, d)
	}
}

// tool is a decoded tool.
type tool struct {
	t *manifest.Tool
	v map[string]any
}

func decode(m *manifest.Manifest) ([]tool, error) {
	out := make([]tool, 0, len(m.Tools))
	for _, t := range m.Tools {
		v, err := t.Value()
		if err != nil {
			return nil, err
		}
		obj, _ := v.(map[string]any)
		out = append(out, tool{t: t, v: obj})
	}
	return out, nil
}

// byName indexes tools by name; the first of a repeated name wins (a
// repeated name is tool-name-unique's business).
func byName(ts []tool) map[string]tool {
	out := map[string]tool{}
	for _, t := range ts {
		if _, dup := out[t.t.Name]; !dup && t.t.Name != "" {
			out[t.t.Name] = t
		}
	}
	return out
}

func (c *comparer) run(newM *manifest.Manifest) error {
	olds, err := decode(c.old)
	if err != nil {
		return err
	}
	news, err := decode(newM)
	if err != nil {
		return err
	}
	oldBy, newBy := byName(olds), byName(news)
	var removed, added []tool
	for _, o := range olds {
		if o.t.Name == "" || oldBy[o.t.Name].t != o.t {
			continue
		}
		if n, ok := newBy[o.t.Name]; ok {
			c.compareTool(o, n)
		} else {
			removed = append(removed, o)
		}
	}
	for _, n := range news {
		if _, ok := oldBy[n.t.Name]; !ok && n.t.Name != "" && newBy[n.t.Name].t == n.t {
			added = append(added, n)
		}
	}
	renamedTo := map[*manifest.Tool]bool{}
	for _, o := range removed {
		var to *tool
		for i := range added {
			if a := &added[i]; !renamedTo[a.t] && sameSchemas(o, *a) {
				to = a
				break
			}
		}
		if to == nil {
			c.report(ToolRemoved, o.t, "/name", "tool %q was removed; clients and agents that call it fail: keep it (deprecated in its description) until its users have moved", o.t.Name)
			continue
		}
		renamedTo[to.t] = true
		c.report(ToolRenamed, to.t, "/name", "tool %q seems renamed to %q (same schemas); callers of %q fail: keep serving the old name as an alias", o.t.Name, to.t.Name, o.t.Name)
	}
	for _, a := range added {
		if !renamedTo[a.t] {
			c.report(ToolAdded, a.t, "/name", "tool %q was added", a.t.Name)
		}
	}
	return nil
}

// sameSchemas reports whether two tools take and return the same values.
func sameSchemas(a, b tool) bool {
	for _, k := range []string{"inputSchema", "outputSchema"} {
		av, aok := a.v[k]
		bv, bok := b.v[k]
		if aok != bok {
			return false
		}
		if !aok {
			continue
		}
		ca := newDoc(a.t, av, "/"+k).canonical(av, "/"+k, nil)
		cb := newDoc(b.t, bv, "/"+k).canonical(bv, "/"+k, nil)
		if !lint.Equal(ca, cb) {
			return false
		}
	}
	_, hasInput := a.v["inputSchema"]
	return hasInput
}

func (c *comparer) compareTool(o, n tool) {
	name := o.t.Name
	if od, nd := o.v["description"], n.v["description"]; !lint.Equal(od, nd) {
		ptr := "/description"
		if nd == nil {
			ptr = ""
		}
		c.report(DescriptionChanged, n.t, ptr, "the description of tool %q changed; check that agents still choose and call it as intended", name)
	}
	c.compareAnnotations(o, n)
	if ov, ok := o.v["inputSchema"]; ok {
		if nv, ok := n.v["inputSchema"]; ok {
			s := &schemaCmp{c: c, tool: name, dir: input, seen: map[[2]string]bool{}}
			od, nd := newDoc(o.t, ov, "/inputSchema"), newDoc(n.t, nv, "/inputSchema")
			s.compare(od.resolve(ov, "/inputSchema"), nd.resolve(nv, "/inputSchema"), "the input", 0)
		}
	}
	ov, hadOut := o.v["outputSchema"]
	nv, hasOut := n.v["outputSchema"]
	switch {
	case hadOut && !hasOut:
		c.report(OutputSchemaRemoved, o.t, "/outputSchema", "tool %q no longer declares an outputSchema; clients that read its structuredContent lose their contract: keep the schema", name)
	case hadOut && hasOut:
		s := &schemaCmp{c: c, tool: name, dir: output, seen: map[[2]string]bool{}}
		od, nd := newDoc(o.t, ov, "/outputSchema"), newDoc(n.t, nv, "/outputSchema")
		s.compare(od.resolve(ov, "/outputSchema"), nd.resolve(nv, "/outputSchema"), "the output", 0)
	}
}

// hints are the annotations whose change can let a tool do more than a
// user approved: the value that claims safety and the default of an absent
// hint (MCP schema.ts, ToolAnnotations).
var hints = []struct {
	name       string
	safe, dflt bool
	// readOnlyMeaning: the hint means something only when readOnlyHint is
	// false; a read-only tool counts as safe.
	readOnlyMeaning bool
}{
	{"readOnlyHint", true, false, false},
	{"destructiveHint", false, true, true},
	{"idempotentHint", true, false, true},
	{"openWorldHint", false, true, false},
}

func hintValue(ann map[string]any, name string, dflt bool) bool {
	if b, ok := ann[name].(bool); ok {
		return b
	}
	return dflt
}

func (c *comparer) compareAnnotations(o, n tool) {
	oa, _ := o.v["annotations"].(map[string]any)
	na, _ := n.v["annotations"].(map[string]any)
	oRO, nRO := hintValue(oa, "readOnlyHint", false), hintValue(na, "readOnlyHint", false)
	for _, h := range hints {
		safeNow := func(ann map[string]any, ro bool) bool {
			if h.readOnlyMeaning && ro {
				return true
			}
			return hintValue(ann, h.name, h.dflt) == h.safe
		}
		// A tool that stops being read-only is reported once, for
		// readOnlyHint: the hints that only then mean something follow.
		if !safeNow(oa, oRO) || safeNow(na, nRO) || h.readOnlyMeaning && oRO {
			continue
		}
		ptr := ""
		switch {
		case na != nil && na[h.name] != nil:
			ptr = "/annotations/" + h.name
		case na != nil:
			ptr = "/annotations"
		}
		c.report(AnnotationSafetyLowered, n.t, ptr, "tool %q: %s went from %v to %v; clients that ran it without asking may now run something their user did not approve: publish the new behaviour as a new tool, or review auto-approvals", n.t.Name, h.name, h.safe, !h.safe)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
