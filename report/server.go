package report

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpfit/mcplint/guard"
	"github.com/mcpfit/mcplint/internal/english"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
)

// A running server's author reads findings differently from a file's: the
// listing the server sent is one-line JSON-RPC messages nobody edits, so a
// line and column in it, and a frame of that line, point at nothing the
// author has. In the text format of a server (TextOptions.Server) a finding
// names the server and the tool (or prompt, resource, template, result),
// shows the tool pretty-printed around the place, and gives advice about
// the server's code (advice.go); that `mcplint fix` can rewrite a saved
// listing is said once, after the findings.

// Server is what the text format says of a checked server.
type Server struct {
	Name, Version, Transport string
	// Label names the server on each finding, when not its Name: the
	// name a configuration of several servers gives it.
	Label string
	// Eras are the eras it was listed in, the negotiated one first.
	Eras []ServerEra
	// Same says that the eras list the same tools, prompts, resources and
	// resource templates.
	Same bool
	// InitializeRefused says how a server of the server/discover era
	// answered initialize, when it did not answer it with a listing.
	InitializeRefused string
	// LiveOnly are the rules only a running server can break, whose
	// findings say so: lint of a saved listing does not have them.
	LiveOnly []string
}

// ServerEra is one era of a server: the version negotiated, the handshake
// method, and what it listed.
type ServerEra struct {
	Protocol, Handshake string
	Manifest            *manifest.Manifest
}

// Header is the text format's first lines about s: its name, the era
// negotiated and what it listed, then a line on the other era.
func (s *Server) Header() string {
	name := guard.Text(s.Name)
	if name == "" {
		name = "(unnamed server)"
	}
	if s.Version != "" {
		name += " " + guard.Text(s.Version)
	}
	if len(s.Eras) == 0 {
		return "server " + name + "\n"
	}
	first := s.Eras[0]
	var b strings.Builder
	fmt.Fprintf(&b, "server %s, protocol %s over %s: %s\n", name, guard.Text(first.Protocol), guard.Text(s.Transport), Counts(first.Manifest))
	switch {
	case len(s.Eras) > 1 && s.Same:
		fmt.Fprintf(&b, "  the same for clients of %s\n", s.Eras[1].clients())
	case len(s.Eras) > 1:
		fmt.Fprintf(&b, "  clients of %s see another list: %s; a finding that concerns one era only says so\n", s.Eras[1].clients(), Counts(s.Eras[1].Manifest))
	case s.InitializeRefused != "":
		fmt.Fprintf(&b, "  clients of protocol 2025-11-25 and older (initialize) cannot use it: %s\n", guard.Text(s.InitializeRefused))
	}
	return b.String()
}

// Counts says how much of each kind a manifest publishes: "2 tools, 3
// prompts, 1 resource, 0 resource templates".
func Counts(m *manifest.Manifest) string {
	if m == nil {
		return "nothing listed"
	}
	return count(len(m.Tools), "tool") + ", " + count(len(m.Prompts), "prompt") + ", " +
		count(len(m.Resources), "resource") + ", " + count(len(m.Templates), "resource template")
}

// eraOf is the era whose manifest d points into: the first era's unless
// the finding was only seen in another.
func (s *Server) manifestOf(d *lint.Diagnostic, first *manifest.Manifest) *manifest.Manifest {
	for _, e := range s.Eras {
		if e.Manifest != nil && e.Manifest.Path == d.File {
			return e.Manifest
		}
	}
	return first
}

// eraNote says which eras a finding concerns, when the server was listed
// in several and the finding is not in all of them.
func (s *Server) eraNote(d *lint.Diagnostic) string {
	if len(s.Eras) < 2 || len(d.Eras) == 0 || len(d.Eras) >= len(s.Eras) {
		return ""
	}
	var parts []string
	for _, v := range d.Eras {
		for _, e := range s.Eras {
			if e.Protocol == v {
				parts = append(parts, e.clients())
				break
			}
		}
	}
	return "only for clients of " + strings.Join(parts, ", ")
}

// clients names the clients of the era, "protocol 2025-11-25 and older
// (initialize)": the older handshake serves every earlier version too. The
// version is the server's answer, so it is guarded like its name.
func (e ServerEra) clients() string {
	if e.Handshake == manifest.MethodInitialize {
		return "protocol " + guard.Text(e.Protocol) + " and older (" + guard.Text(e.Handshake) + ")"
	}
	return "protocol " + guard.Text(e.Protocol) + " (" + guard.Text(e.Handshake) + ")"
}

// subject is what a finding is about, for its first line, and the bytes
// and the pointer, relative to them, of its frame (raw nil: no frame).
func subject(m *manifest.Manifest, d *lint.Diagnostic) (what string, raw []byte, rel string) {
	if m == nil || d.Line == 0 {
		return "", nil, ""
	}
	if d.ToolIndex >= 0 && d.ToolIndex < len(m.Tools) {
		t := m.Tools[d.ToolIndex]
		what = "tool \"" + guard.Text(shown(t.Name)) + "\""
		if t.Name == "" {
			what = "tool " + strconv.Itoa(t.Index)
		}
		raw, _ = t.Raw()
		return what, raw, d.RelPointer
	}
	var best *manifest.Entry
	bestLen := -1
	for _, list := range [][]*manifest.Entry{m.Prompts, m.Resources, m.Templates, m.Results} {
		for _, e := range list {
			start := e.Locate("").Offset
			n := len(e.Raw())
			if d.Offset >= start && d.Offset <= start+n && (bestLen < 0 || n < bestLen) {
				best, bestLen = e, n
			}
		}
	}
	if best == nil {
		return "", nil, ""
	}
	return guard.Text(shown(best.Describe())), best.Raw(), strings.TrimPrefix(d.Pointer, best.Pointer)
}

// serverDiagnostic writes d as a server's author reads it.
func (r *renderer) serverDiagnostic(d *lint.Diagnostic) {
	w, p, s := r.w, r.p, r.srv
	m := s.manifestOf(d, r.f.Manifest)
	what, raw, rel := subject(m, d)
	head := guard.Text(s.Label)
	if head == "" {
		head = guard.Text(s.Name)
	}
	if head == "" {
		head = guard.Text(d.File)
	}
	if what != "" {
		head += ": " + what
	}
	put(w, p.paint(p.location, head), ": ", p.paint(p.sev(d.Severity), d.Severity.String()), " ", p.paint(p.rule, d.Rule), ": ", guard.Text(d.Message), "\n")
	var fr serverFrame
	if raw != nil {
		if !r.pr.of(raw) {
			r.pr = printJSON(raw) // the next findings are often the same tool's
		}
		fr = r.pr.frame(rel)
	}
	margin := strings.Repeat(" ", fr.width())
	bar, eq := p.paint(p.gutter, "|"), p.paint(p.gutter, "=")
	if raw != nil {
		if rel != "" {
			put(w, margin, p.paint(p.gutter, "--> "), guard.Text(shown(rel)), "\n")
		}
		put(w, margin, " ", bar, "\n")
		for i, line := range fr.lines {
			n := strconv.Itoa(fr.first + i + 1)
			put(w, strings.Repeat(" ", len(margin)-len(n)), p.paint(p.gutter, n), " ", bar, " ", line, "\n")
			if fr.first+i == fr.at {
				put(w, margin, " ", bar, " ", strings.Repeat(" ", fr.col), p.paint(p.sev(d.Severity), strings.Repeat("^", max(fr.span, 1))), "\n")
			}
		}
	}
	if note := r.consumerNote(d); note != "" {
		put(w, margin, " ", eq, " ", note, "\n")
	}
	if len(d.Merged) > 0 {
		put(w, margin, " ", eq, " also: ", guard.Text(strings.Join(d.Merged, ", ")), "\n")
	}
	if note := s.eraNote(d); note != "" {
		put(w, margin, " ", eq, " ", note, "\n")
	}
	if slices.Contains(s.LiveOnly, d.Rule) {
		put(w, margin, " ", eq, " ", "seen live only: what the server did, which a saved listing does not show", "\n")
	}
	if a := adviceFor(d, m, r.generator); a != "" {
		put(w, margin, " ", eq, " ", p.paint(p.hint, "in the server's code: "+a), "\n")
	}
	w.WriteByte('\n')
}

// generator is Generator(t), remembered for the last tool: a tool's
// findings come one after the other.
func (r *renderer) generator(t *manifest.Tool) string {
	if r.genOf != t {
		r.genOf, r.gen = t, Generator(t)
	}
	return r.gen
}

// fixNote is said once after a server's findings when some have fixes:
// the server's author changes code, but a saved listing can be fixed.
func fixNote(sum Summary) string {
	n := sum.Fixable + sum.UnsafeFixable
	if n == 0 {
		return ""
	}
	unsafe := ""
	if sum.UnsafeFixable > 0 {
		unsafe = fmt.Sprintf(", %d of them with --unsafe-fixes", sum.UnsafeFixable)
	}
	return fmt.Sprintf("%d %s a fix for a saved listing: mcplint check --save FILE, then mcplint fix FILE%s",
		n, english.Plural(n, "finding has", "findings have"), unsafe)
}

// writeServerEnd writes what follows a server's findings: the fix note.
func writeServerEnd(w io.Writer, p palette, sum Summary) {
	if note := fixNote(sum); note != "" {
		fmt.Fprintf(w, "%s\n", p.paint(p.hint, note))
	}
}
