package report

import (
	"bufio"

	"io"
	"slices"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	jsonv1 "github.com/go-json-experiment/json/v1"

	"github.com/mcpfit/mcplint/consumer"
	"github.com/mcpfit/mcplint/guard"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
)

// JSONVersion is the version of the JSON report format.
const JSONVersion = 1

// JSONReport is the JSON format's document (see the package doc).
type JSONReport struct {
	Version     int              `json:"version"`
	Diagnostics []JSONDiagnostic `json:"diagnostics"`
	Summary     JSONSummary      `json:"summary"`
	// Errors are what the run could not check (see Failure); absent when
	// nothing failed.
	Errors []JSONError `json:"errors,omitempty"`
}

// JSONDiagnostic is one finding of the JSON format.
type JSONDiagnostic struct {
	Rule      string `json:"rule"`
	Severity  string `json:"severity"`
	Tool      string `json:"tool"`
	ToolIndex int    `json:"toolIndex"`
	Pointer   string `json:"pointer"`
	File      string `json:"file"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	Message   string `json:"message"`
	// Fix is "none", "safe" or "unsafe".
	Fix string `json:"fix"`
	// RefusedBy and AlteredBy are the IDs of the consumers (package
	// consumer) that refuse, or silently alter, what was found.
	RefusedBy []string `json:"refusedBy,omitempty"`
	AlteredBy []string `json:"alteredBy,omitempty"`
	// AlsoRules are the other rules that reported the same problem here,
	// merged into this finding.
	AlsoRules []string `json:"alsoRules,omitempty"`
	// Eras are the protocol versions of the eras of a running server
	// whose clients see the finding (mcplint check).
	Eras []string `json:"eras,omitempty"`
	// Rules are every ID the finding is known by: Rule, then AlsoRules.
	// An ignore of any of them silences it.
	Rules []string `json:"rules"`
	// Consumers say, for each consumer of RefusedBy and AlteredBy, what it
	// does with what was found, and the line of its profile (package
	// consumer) that says so, when the rule names one.
	Consumers []JSONFindingConsumer `json:"consumers,omitempty"`
}

// JSONFindingConsumer is one consumer of a finding in the JSON format.
type JSONFindingConsumer struct {
	ID string `json:"id"`
	// Action is "refuses" (the request fails), "drops-tool",
	// "may-refuse", "discourages" (a SHOULD), "drops-keyword" or
	// "rewrites".
	Action string `json:"action"`
	// Line is the ID of the profile line (`mcplint rules CONSUMER` prints
	// the profile).
	Line string `json:"line,omitempty"`
}

// actionNames name consumer.Action in the JSON format.
var actionNames = map[consumer.Action]string{
	consumer.Refuses: "refuses", consumer.DropsTool: "drops-tool", consumer.MayRefuse: "may-refuse",
	consumer.Discourages: "discourages", consumer.DropsKeyword: "drops-keyword", consumer.Rewrites: "rewrites",
}

func jsonConsumers(rs []consumer.Refusal) []JSONFindingConsumer {
	var out []JSONFindingConsumer
	for _, r := range rs {
		c := JSONFindingConsumer{ID: string(r.Consumer), Action: actionNames[r.Action()], Line: r.Line}
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}

// JSONSummary counts the findings of the JSON format.
type JSONSummary struct {
	Errors        int `json:"errors"`
	Warnings      int `json:"warnings"`
	Infos         int `json:"infos"`
	Fixable       int `json:"fixable"`
	UnsafeFixable int `json:"unsafeFixable"`
	Files         int `json:"files"`
	// What the files publish: tools, and for a server's surface its
	// prompts, resources and resource templates.
	Tools             int `json:"tools"`
	Prompts           int `json:"prompts"`
	Resources         int `json:"resources"`
	ResourceTemplates int `json:"resourceTemplates"`
	// ContextTokens estimates the tokens the tool definitions take in a
	// model's context (package tokens); Context has each file's (server's).
	ContextTokens int           `json:"contextTokens"`
	Context       []JSONContext `json:"context"`
}

// JSONContext is one file's (one server's) tool definitions in a model's
// context.
type JSONContext struct {
	File   string `json:"file"`
	Tools  int    `json:"tools"`
	Tokens int    `json:"tokens"`
}

// NewJSONReport builds the JSON format's document.
func NewJSONReport(files []File) JSONReport {
	r := JSONReport{
		Version:     JSONVersion,
		Diagnostics: []JSONDiagnostic{},
		Summary:     jsonSummary(Summarize(files)),
	}
	for _, f := range files {
		for i := range f.Diagnostics {
			r.Diagnostics = append(r.Diagnostics, jsonDiagnostic(&f.Diagnostics[i]))
		}
	}
	return r
}

func jsonSummary(s Summary) JSONSummary {
	return JSONSummary{
		Errors: s.Errors, Warnings: s.Warnings, Infos: s.Infos,
		Fixable: s.Fixable, UnsafeFixable: s.UnsafeFixable, Files: s.Files,
		Tools: s.Tools, Prompts: s.Prompts, Resources: s.Resources, ResourceTemplates: s.Templates,
		ContextTokens: s.ContextTokens, Context: jsonContext(s.Context),
	}
}

func jsonContext(cs []FileContext) []JSONContext {
	out := make([]JSONContext, len(cs))
	for i, c := range cs {
		out[i] = JSONContext{File: c.File, Tools: c.Tools, Tokens: c.Tokens}
	}
	return out
}

func jsonDiagnostic(d *lint.Diagnostic) JSONDiagnostic {
	return JSONDiagnostic{
		Rule: d.Rule, Severity: d.Severity.String(),
		Tool: shown(d.Tool), ToolIndex: d.ToolIndex, Pointer: shown(d.Pointer),
		File: d.File, Line: d.Line, Column: d.Column,
		Message: d.Message, Fix: fixName(d.FixKind()),
		RefusedBy: consumerIDs(d.Consumers, false), AlteredBy: consumerIDs(d.Consumers, true),
		AlsoRules: d.Merged, Rules: d.Rules(), Consumers: jsonConsumers(d.Consumers), Eras: d.Eras,
	}
}

// JSONStream writes the JSON format as findings come, as TextStream
// writes the text format: what WriteJSON writes of files is what Start,
// Write and End write of each, in order, and then Close, byte for byte.
// Writing stops at the first error, which Close returns.
type JSONStream struct {
	bw     *bufio.Writer
	g      *guard.Writer
	enc    *jsontext.Encoder
	sum    Summary
	m      *manifest.Manifest
	failed []Failure
	err    error
}

// NewJSONStream returns a JSONStream writing to w.
func NewJSONStream(w io.Writer) *JSONStream {
	g := guard.NewJSONWriter(w)
	bw := bufio.NewWriterSize(g, 64<<10)
	s := &JSONStream{bw: bw, g: g, enc: jsontext.NewEncoder(bw, jsonOptions...)}
	s.token(jsontext.BeginObject)
	s.token(jsontext.String("version"))
	s.token(jsontext.Int(JSONVersion))
	s.token(jsontext.String("diagnostics"))
	s.token(jsontext.BeginArray)
	return s
}

func (s *JSONStream) token(t jsontext.Token) {
	if s.err == nil {
		s.err = s.enc.WriteToken(t)
	}
}

// Start begins the findings of a file.
func (s *JSONStream) Start(m *manifest.Manifest) { s.m = m }

// Write writes findings of the current file and counts them.
func (s *JSONStream) Write(ds []lint.Diagnostic) {
	s.sum.add(ds)
	for i := range ds {
		if s.err != nil {
			return
		}
		s.err = json.MarshalEncode(s.enc, jsonDiagnostic(&ds[i]), jsonOptions...)
	}
}

// End counts the current file, and what it publishes, in the summary.
func (s *JSONStream) End() {
	s.sum.addFile(s.m)
	s.m = nil
}

// Summary counts what has been written.
func (s *JSONStream) Summary() Summary { return s.sum }

// Failed records what the run could not check, written by Close.
func (s *JSONStream) Failed(failures []Failure) { s.failed = append(s.failed, failures...) }

// Close writes the summary, and the failures, and flushes.
func (s *JSONStream) Close() error {
	s.token(jsontext.EndArray)
	s.token(jsontext.String("summary"))
	if s.err == nil {
		s.err = json.MarshalEncode(s.enc, jsonSummary(s.sum), jsonOptions...)
	}
	if len(s.failed) > 0 {
		s.token(jsontext.String("errors"))
		if s.err == nil {
			s.err = json.MarshalEncode(s.enc, jsonErrors(s.failed), jsonOptions...)
		}
	}
	s.token(jsontext.EndObject)
	if s.err != nil {
		return s.err
	}
	// The encoder ends a top-level value with a newline, as WriteJSON does.
	if err := s.bw.Flush(); err != nil {
		return err
	}
	return s.g.Flush()
}

// fullMessage is the message with the consumers it concerns, for the
// formats that have one text field per finding.
func fullMessage(d *lint.Diagnostic) string {
	if note := d.ConsumerNote(); note != "" {
		return d.Message + " (" + note + ")"
	}
	return d.Message
}

func consumerIDs(rs []consumer.Refusal, mangles bool) []string {
	var out []string
	for _, r := range rs {
		if r.Mangles == mangles && !slices.Contains(out, string(r.Consumer)) {
			out = append(out, string(r.Consumer))
		}
	}
	return out
}

func fixName(k lint.FixKind) string {
	switch k {
	case lint.SafeFix:
		return "safe"
	case lint.UnsafeFix:
		return "unsafe"
	}
	return "none"
}

// WriteJSON writes the JSON format, indented, ending with a newline, with
// the failures of the run (see Failure).
func WriteJSON(w io.Writer, files []File, failures ...Failure) error {
	r := NewJSONReport(files)
	r.Errors = jsonErrors(failures)
	return writeJSON(w, r)
}

// jsonOptions are how the JSON formats are written (see writeJSON).
var jsonOptions = []json.Options{jsonv1.DefaultOptionsV1(), jsontext.WithIndent("  "), jsontext.EscapeForHTML(false)}

// writeJSON writes v as encoding/json's Encoder does, indented by two
// spaces, but with the faster encoder of go-json-experiment: a report of
// a hundred thousand findings took longer to write than to find. It writes
// through guard.NewJSONWriter: the strings are the values, exactly, and the
// bytes hold no control character and no CI runner's command.
func writeJSON(w io.Writer, v any) error {
	g := guard.NewJSONWriter(w)
	bw := bufio.NewWriterSize(g, 64<<10)
	// Messages quote schemas; "<" and "&" escaped as \u003c would only
	// make them harder to read.
	if err := json.MarshalWrite(bw, v, jsonOptions...); err != nil {
		return err
	}
	if err := bw.WriteByte('\n'); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return g.Flush()
}
