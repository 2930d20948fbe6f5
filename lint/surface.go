package lint

import (
	"fmt"

	"github.com/mcpfit/mcplint/manifest"
)

// SurfacePass is one rule's view of the rest of a server's surface: the
// prompts, resources, resource templates and results of a manifest
// (manifest.Entry), which a rule with CheckSurface reads once per
// manifest.
type SurfacePass struct {
	Rule     *Rule
	Manifest *manifest.Manifest
	// Protocol is the newest version checked, as for Pass.
	Protocol string

	runView
	report func(*manifest.Entry, Diagnostic)
}

// Since reports whether a protocol version checked is v or newer.
func (p *SurfacePass) Since(v string) bool { return AtLeast(p.Protocol, v) }

// Before reports whether a protocol version checked is older than v.
func (p *SurfacePass) Before(v string) bool { return !AtLeast(p.oldest, v) }

// Option returns a rule option, as Pass.Option.
func (p *SurfacePass) Option(name string) any { return option(p.Rule, p.options, name) }

// Reportf records a finding at a pointer relative to entry e.
func (p *SurfacePass) Reportf(e *manifest.Entry, ptr string, format string, args ...any) {
	p.Report(e, Diagnostic{RelPointer: ptr, Message: fmt.Sprintf(format, args...)})
}

// Report records a finding about entry e, as Pass.Report: Rule is filled
// in, and a zero Severity means the rule's.
func (p *SurfacePass) Report(e *manifest.Entry, d Diagnostic) {
	d.Rule = p.Rule.ID
	p.report(e, d)
}

// Entries returns the prompts, resources and resource templates of the
// manifest, in that order.
func (p *SurfacePass) Entries() []*manifest.Entry {
	m := p.Manifest
	out := make([]*manifest.Entry, 0, len(m.Prompts)+len(m.Resources)+len(m.Templates))
	out = append(out, m.Prompts...)
	out = append(out, m.Resources...)
	return append(out, m.Templates...)
}

// placeEntry fills in where a diagnostic about an entry is. It concerns no
// tool: ToolIndex is -1, and the pointer locates the entry in its
// document.
func placeEntry(e *manifest.Entry, d *Diagnostic) {
	pos := e.Locate(d.RelPointer)
	d.File = e.M.Path
	d.Line, d.Column, d.Offset = pos.Line, pos.Column, pos.Offset
	d.ToolIndex = -1
	d.Pointer = e.DocPointer(d.RelPointer)
	d.RelPointer = shareTail(d.Pointer, d.RelPointer)
}
