package report

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/fatih/color"

	"github.com/mcpfit/mcplint/guard"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
)

// TextOptions tune the text format.
type TextOptions struct {
	// Color adds ANSI colours (see ColorMode.Enabled).
	Color bool
	// Quiet prints only the summary line, and nothing when nothing was
	// found.
	Quiet bool
	// Fixed is what `mcplint fix` fixed, shown in the summary.
	Fixed Fixed
	// ShowInfos writes every info in full; without it each rule's infos
	// are summed up in one line before the summary (infos.go).
	ShowInfos bool
	// Server, when set, writes the findings of a running server as its
	// author reads them (server.go): the server and tool named, the tool
	// pretty-printed, advice about the server's code.
	Server *Server
	// NoContext leaves out the line of what the tool definitions cost in
	// a model's context (Summary.ContextLine): the files of `breaking` are
	// two versions of one list, which no client loads together.
	NoContext bool
}

// snippetWidth bounds the source shown under a diagnostic, in characters:
// a minified manifest is one line of megabytes.
const snippetWidth = 100

// palette holds the colours of one report; each is forced on or off so the
// decision does not depend on fatih/color's process-wide default.
type palette struct {
	on       bool
	severity map[lint.Severity]*color.Color
	rule     *color.Color
	location *color.Color
	gutter   *color.Color
	hint     *color.Color
}

func newPalette(on bool) palette {
	p := palette{
		on: on,
		severity: map[lint.Severity]*color.Color{
			lint.Error:   color.New(color.FgRed, color.Bold),
			lint.Warning: color.New(color.FgYellow, color.Bold),
			lint.Info:    color.New(color.FgCyan, color.Bold),
		},
		rule:     color.New(color.FgMagenta),
		location: color.New(color.Bold),
		gutter:   color.New(color.FgBlue, color.Bold),
		hint:     color.New(color.FgGreen),
	}
	all := []*color.Color{p.rule, p.location, p.gutter, p.hint}
	for _, c := range p.severity {
		all = append(all, c)
	}
	for _, c := range all {
		if on {
			c.EnableColor()
		} else {
			c.DisableColor()
		}
	}
	return p
}

func (p palette) sev(s lint.Severity) *color.Color {
	if c, ok := p.severity[s]; ok {
		return c
	}
	return p.location
}

// paint is s in colour c, or s itself when colour is off: a report of
// thousands of findings should not format each part through the colour
// package only to leave it as it was.
func (p palette) paint(c *color.Color, s string) string {
	if !p.on {
		return s
	}
	return c.Sprint(s)
}

// WriteText writes the text format: each diagnostic with its source line,
// then the summary. Summary.Fixed is taken from opt.
func WriteText(w io.Writer, files []File, opt TextOptions) error {
	ts := NewTextStream(w, opt)
	for _, f := range files {
		ts.Start(f.Manifest)
		ts.Write(f.Diagnostics)
		ts.End()
	}
	return ts.Close()
}

// TextStream writes the text format as findings come, so that a run need
// not hold them all (see lint.Linter.LintEach): what WriteText writes of
// files is what Start, Write and End write of each, in order, and then
// Close. Writing stops at the first error, which Close returns.
type TextStream struct {
	bw    *bufio.Writer
	g     *guard.Writer
	p     palette
	opt   TextOptions
	sum   Summary
	r     renderer // the current file's
	infos infoTally
	err   error
}

// NewTextStream returns a TextStream writing to w. Every value from the
// input is shown through guard.Text, and the whole text goes through a
// guard.Writer (the one w is, when it is one): no line of it is a CI
// runner's command.
func NewTextStream(w io.Writer, opt TextOptions) *TextStream {
	g := guard.NewWriter(w, opt.Color)
	return &TextStream{bw: bufio.NewWriter(g), g: g, p: newPalette(opt.Color), opt: opt}
}

// Start begins the findings of a file, whose source m they are placed in
// (nil for none).
func (s *TextStream) Start(m *manifest.Manifest) {
	s.r = renderer{w: s.bw, p: s.p, f: File{Manifest: m}, srv: s.opt.Server}
}

// Write writes findings of the current file, in the order given, and
// counts them.
func (s *TextStream) Write(ds []lint.Diagnostic) {
	s.sum.add(ds)
	if s.opt.Quiet || s.err != nil || len(ds) == 0 {
		return
	}
	if !s.opt.ShowInfos {
		ds = s.infos.split(ds)
	}
	if len(ds) <= textChunk {
		for i := range ds {
			s.r.diagnostic(&ds[i])
		}
		return
	}
	s.err = writeDiagnostics(s.bw, s.r, ds)
}

// End counts the current file, and what it publishes, in the summary: a
// file whose run failed part-way is not ended.
func (s *TextStream) End() {
	s.sum.addFile(s.r.f.Manifest)
	s.r = renderer{}
}

// Summary counts what has been written, Fixed taken from the options.
func (s *TextStream) Summary() Summary {
	sum := s.sum
	sum.Fixed = s.opt.Fixed
	return sum
}

// Close writes the summary line, unless no file was ended (or, when quiet,
// nothing was found), and flushes.
func (s *TextStream) Close() error {
	if s.err != nil {
		return s.err
	}
	sum := s.Summary()
	if !s.opt.Quiet {
		s.infos.write(s.bw, s.p)
	}
	if s.opt.Server != nil {
		// The fixes are the saved listing's, said once (server.go).
		if !s.opt.Quiet {
			writeServerEnd(s.bw, s.p, sum)
		}
		sum.Fixable, sum.UnsafeFixable = 0, 0
	}
	if sum.Files > 0 && (!s.opt.Quiet || sum.Total() > 0) {
		if line := sum.ContextLine(); line != "" && !s.opt.Quiet && !s.opt.NoContext {
			fmt.Fprintln(s.bw, line)
		}
		fmt.Fprintln(s.bw, sum.String())
	}
	if err := s.bw.Flush(); err != nil {
		return err
	}
	return s.g.Flush()
}

// textChunk is how many findings one goroutine renders at a time. Ten
// thousand tools can have tens of thousands of findings, each with a code
// frame: rendering them took an eighth of a lint run, on one core while the
// others waited. Chunks are rendered side by side and written in order, a
// few at a time, so the output is the same and never held whole.
const textChunk = 1024

func writeDiagnostics(w *bufio.Writer, base renderer, diags []lint.Diagnostic) error {
	if len(diags) <= textChunk {
		r := base
		r.w = w
		for i := range diags {
			r.diagnostic(&diags[i])
		}
		return nil
	}
	workers := max(1, runtime.GOMAXPROCS(0))
	bufs := make([]bytes.Buffer, workers)
	// Each chunk starts with the frame the chunk before it left: a fresh
	// one copied its line again and counted its characters from the start,
	// for every chunk of a minified manifest's one line of megabytes. Only
	// the counting is done here (frame.count), the snippets by the workers;
	// a server's findings show no such frame.
	seeds := make([]frame, (len(diags)+textChunk-1)/textChunk)
	fr, m := base.fr, base.f.Manifest
	for i := range diags {
		if i%textChunk == 0 {
			seeds[i/textChunk] = fr
		}
		if d := &diags[i]; d.Line > 0 && m != nil && base.srv == nil {
			if fr.line != d.Line {
				fr = frame{line: d.Line, text: m.Line(d.Line), runes: -1}
			}
			fr.count(d.Column)
		}
	}
	for start := 0; start < len(diags); start += workers * textChunk {
		var wg sync.WaitGroup
		for k := range workers {
			lo := start + k*textChunk
			if lo >= len(diags) {
				break
			}
			hi := min(lo+textChunk, len(diags))
			bufs[k].Reset()
			wg.Go(func() {
				r := renderer{w: &bufs[k], p: base.p, f: base.f, srv: base.srv, fr: seeds[lo/textChunk]}
				for i := lo; i < hi; i++ {
					r.diagnostic(&diags[i])
				}
			})
		}
		wg.Wait()
		for k := range bufs {
			if _, err := w.Write(bufs[k].Bytes()); err != nil {
				return err
			}
			bufs[k].Reset()
		}
	}
	return nil
}

// textWriter is a *bufio.Writer or a *bytes.Buffer.
type textWriter interface {
	io.Writer
	io.StringWriter
	io.ByteWriter
}

// renderer writes a run of one file's findings in order.
type renderer struct {
	w   textWriter
	p   palette
	f   File
	srv *Server  // writing a server's findings (server.go)
	pr  *printed // the last entry a server's finding framed
	// genOf is the last tool whose generator (gen) advice told.
	genOf *manifest.Tool
	gen   string
	fr    frame
	// notes remembers the consumer note of each list of refusals, by
	// content: findings carry their own copies of a few lists, and the note
	// takes longer to word than the rest of the finding.
	notes map[string]string
	key   []byte
}

func (r *renderer) consumerNote(d *lint.Diagnostic) string {
	if len(d.Consumers) == 0 {
		return ""
	}
	key := r.key[:0]
	for _, c := range d.Consumers {
		key = append(key, c.Consumer...)
		if c.Mangles {
			key = append(key, '~')
		}
		key = append(key, 0)
		key = append(key, c.Line...) // the line says what the consumer does
		key = append(key, 0)
	}
	r.key = key
	if note, ok := r.notes[string(key)]; ok {
		return note
	}
	if r.notes == nil {
		r.notes = map[string]string{}
	}
	note := d.ConsumerNote()
	r.notes[string(key)] = note
	return note
}

func (r *renderer) diagnostic(d *lint.Diagnostic) {
	if r.srv != nil {
		r.serverDiagnostic(d)
		return
	}
	w, p, f, fr := r.w, r.p, r.f, &r.fr
	sev := p.sev(d.Severity)
	line := strconv.Itoa(d.Line)
	file, msg := guard.Text(d.File), guard.Text(d.Message)
	switch {
	case p.on:
		loc := file
		if d.Line > 0 {
			loc = file + ":" + line + ":" + strconv.Itoa(d.Column)
		}
		put(w, p.paint(p.location, loc), ": ", p.paint(sev, d.Severity.String()), " ", p.paint(p.rule, d.Rule), ": ", msg, "\n")
	case d.Line > 0:
		// Without colour the parts are written as they are, not joined
		// first: a run may print a hundred thousand findings.
		put(w, file, ":", line, ":", strconv.Itoa(d.Column), ": ", d.Severity.String(), " ", d.Rule, ": ", msg, "\n")
	default:
		put(w, file, ": ", d.Severity.String(), " ", d.Rule, ": ", msg, "\n")
	}
	margin := strings.Repeat(" ", len(line))
	bar, eq := p.paint(p.gutter, "|"), p.paint(p.gutter, "=")
	if d.Line > 0 && f.Manifest != nil {
		if fr.line != d.Line {
			*fr = frame{line: d.Line, text: f.Manifest.Line(d.Line), runes: -1}
		}
		src, caret := fr.snippet(d.Column)
		put(w, margin, " ", bar, "\n")
		put(w, p.paint(p.gutter, line), " ", bar, " ", src, "\n")
		put(w, margin, " ", bar, " ", caret, p.paint(sev, "^"), "\n")
	}
	if note := r.consumerNote(d); note != "" {
		put(w, margin, " ", eq, " ", note, "\n")
	}
	if len(d.Merged) > 0 {
		put(w, margin, " ", eq, " also: ", guard.Text(strings.Join(d.Merged, ", ")), "\n")
	}
	if p.on {
		if h := hint(d); h != "" {
			put(w, margin, " ", eq, " ", p.paint(p.hint, "hint: "+h), "\n")
		}
	} else if h := hintText(d); h != "" {
		put(w, margin, " ", eq, " hint: ", h)
		if d.Fix.Message != "" {
			put(w, " (", guard.Text(d.Fix.Message), ")")
		}
		w.WriteByte('\n')
	}
	w.WriteByte('\n')
}

// put writes the parts one after the other.
func put(w textWriter, parts ...string) {
	for _, s := range parts {
		w.WriteString(s)
	}
}

func hint(d *lint.Diagnostic) string {
	h := hintText(d)
	if h != "" && d.Fix.Message != "" {
		h += " (" + guard.Text(d.Fix.Message) + ")"
	}
	return h
}

// hintText is hint without the fix's message.
func hintText(d *lint.Diagnostic) string {
	switch d.FixKind() {
	case lint.SafeFix:
		return "fixable with `mcplint fix`"
	case lint.UnsafeFix:
		return "unsafe fix available with --unsafe-fixes"
	}
	return ""
}

// snippet returns the part of line to show and the padding that puts a caret
// under the byte column col.
func snippet(line string, col int) (shown, pad string) {
	fr := frame{text: line, runes: -1}
	return fr.snippet(col)
}

// frame is the source line shown under diagnostics, kept while they are on
// it: a minified manifest is one line of megabytes with thousands of
// findings, and each must not count the line's characters again.
type frame struct {
	line  int
	text  string
	runes int // characters in text; -1 until counted
	// at is a byte offset in text and atRune the characters before it:
	// findings come in source order, so each counts on from the last.
	at, atRune int
}

// snippet returns the part of the line to show and the padding that puts a
// caret under the byte column col. Tabs, the source's indentation, are kept
// in both so the caret lines up whatever the tab width; every other
// character guard.Unsafe reports, and invalid UTF-8, is shown escaped as
// guard.Text shows it, the padding as wide as the escape. A line wider than
// snippetWidth is cut to a window around the column, marked with "…".
func (f *frame) snippet(col int) (shown, pad string) {
	text := f.text
	b, at := f.count(col)
	// The window, in characters [start, end), and its first byte.
	start, end, from := 0, -1, 0
	if len(text) > snippetWidth {
		if f.runes > snippetWidth {
			start = max(0, at-snippetWidth/3)
			end = min(f.runes, start+snippetWidth)
			start = max(0, end-snippetWidth)
			from = b
			for i := at; i > start; i-- {
				_, size := utf8.DecodeLastRuneInString(text[:from])
				from -= size
			}
		}
	}
	var sb, cb strings.Builder
	if start > 0 {
		sb.WriteString("…")
		cb.WriteByte(' ')
	}
	i := start
	for off := from; off < len(text) && (end < 0 || i < end); i++ {
		r, size := utf8.DecodeRuneInString(text[off:])
		shown := text[off : off+size]
		off += size
		escaped := r != '\t' && (r == utf8.RuneError && size <= 1 || guard.Unsafe(r))
		if escaped {
			shown = guard.Text(shown) // never send control characters to a terminal
		}
		sb.WriteString(shown)
		if i < at {
			switch {
			case r == '\t':
				cb.WriteByte('\t')
			case escaped:
				cb.WriteString(strings.Repeat(" ", len(shown)))
			default:
				cb.WriteByte(' ')
			}
		}
	}
	if end >= 0 && end < f.runes {
		sb.WriteString("…")
	}
	return sb.String(), cb.String()
}

// count moves the frame to the byte column col and returns its byte offset
// in the line and the caret's index in characters (col counts bytes),
// counting on from the last column; the characters of a line wider than
// snippetWidth are counted too, once. It is all of snippet that a later
// finding on the line depends on.
func (f *frame) count(col int) (b, at int) {
	text := f.text
	b = min(max(col-1, 0), len(text))
	if b < f.at {
		f.at, f.atRune = 0, 0
	}
	at = f.atRune + utf8.RuneCountInString(text[f.at:b])
	f.at, f.atRune = b, at
	if len(text) > snippetWidth && f.runes < 0 {
		f.runes = utf8.RuneCountInString(text)
	}
	return b, at
}
