package report

import (
	"io"
	"net/url"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/mcpfit/mcplint/guard"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
)

// RulesDocURL is the page that documents every rule, one anchor a rule
// (docs/rules.md, generated from the rules' docs).
const RulesDocURL = "https://github.com/mcpfit/mcplint/blob/main/docs/rules.md"

// HelpURI is the address of a rule's documentation.
func HelpURI(id string) string { return RulesDocURL + "#" + id }

// SARIF 2.1.0 (https://docs.oasis-open.org/sarif/sarif/v2.1.0/sarif-v2.1.0.html).
const (
	sarifVersion = "2.1.0"
	sarifSchema  = "https://json.schemastore.org/sarif-2.1.0.json"
)

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool               sarifTool                      `json:"tool"`
	AutomationDetails  *sarifAutomation               `json:"automationDetails,omitempty"`
	OriginalURIBaseIDs map[string]sarifArtifactLocate `json:"originalUriBaseIds,omitempty"`
	Results            []sarifResult                  `json:"results"`
	ColumnKind         string                         `json:"columnKind"`
	Invocations        []sarifInvocation              `json:"invocations"`
}

type sarifAutomation struct {
	ID string `json:"id"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifMessage struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifRule struct {
	ID                   string         `json:"id"`
	Name                 string         `json:"name"`
	ShortDescription     sarifMessage   `json:"shortDescription"`
	FullDescription      sarifMessage   `json:"fullDescription"`
	HelpURI              string         `json:"helpUri"`
	Help                 sarifMessage   `json:"help"`
	DefaultConfiguration sarifRuleLevel `json:"defaultConfiguration"`
	Properties           sarifRuleProps `json:"properties"`
}

type sarifRuleLevel struct {
	Level string `json:"level"`
}

type sarifRuleProps struct {
	Tags             []string `json:"tags"`
	SecuritySeverity string   `json:"security-severity,omitempty"`
}

type sarifResult struct {
	RuleID        string            `json:"ruleId"`
	RuleIndex     int               `json:"ruleIndex"`
	Level         string            `json:"level"`
	Message       sarifMessage      `json:"message"`
	Locations     []sarifLocation   `json:"locations"`
	PartialFinger map[string]string `json:"partialFingerprints,omitempty"`
	Fixes         []sarifFix        `json:"fixes,omitempty"`
	Properties    map[string]any    `json:"properties,omitempty"`
}

type sarifLocation struct {
	Physical sarifPhysical  `json:"physicalLocation"`
	Logical  []sarifLogical `json:"logicalLocations,omitempty"`
}

type sarifLogical struct {
	Name               string `json:"name"`
	FullyQualifiedName string `json:"fullyQualifiedName,omitempty"`
	Kind               string `json:"kind,omitempty"`
}

type sarifPhysical struct {
	Artifact sarifArtifactLocate `json:"artifactLocation"`
	Region   *sarifRegion        `json:"region,omitempty"`
}

type sarifArtifactLocate struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine   int  `json:"startLine,omitempty"`
	StartColumn int  `json:"startColumn,omitempty"`
	EndLine     int  `json:"endLine,omitempty"`
	EndColumn   int  `json:"endColumn,omitempty"`
	ByteOffset  *int `json:"byteOffset,omitempty"`
	ByteLength  *int `json:"byteLength,omitempty"`
}

type sarifFix struct {
	Description sarifMessage          `json:"description"`
	Changes     []sarifArtifactChange `json:"artifactChanges"`
}

type sarifArtifactChange struct {
	Artifact     sarifArtifactLocate `json:"artifactLocation"`
	Replacements []sarifReplacement  `json:"replacements"`
}

type sarifReplacement struct {
	Deleted  sarifRegion   `json:"deletedRegion"`
	Inserted *sarifContent `json:"insertedContent,omitempty"`
}

type sarifContent struct {
	Text string `json:"text"`
}

// SARIFOptions describe the run for WriteSARIF.
type SARIFOptions struct {
	// Rules are the rules that ran; each becomes a reportingDescriptor.
	// Rules of results that are not among them are added.
	Rules   []*lint.Rule
	Version string // mcplint's version
	// SourceRoot is the absolute path of the folder %SRCROOT% stands for,
	// the root of the repository, against which artifact URIs are
	// written; "" is the current directory.
	SourceRoot string
	// AutomationID becomes runs[0].automationDetails.id, which code
	// scanning reads as the analysis category up to its last "/"; "" omits
	// automationDetails.
	AutomationID string
	// Failures are what the run could not check (see Failure).
	Failures []Failure
}

// SecurityPack is the pack whose rules get a security-severity, which
// code scanning needs to rank an alert as a security problem. It is the
// name of the rules' security pack.
const SecurityPack = "security"

// SecuritySeverity is the security-severity (a CVSS-like score from 0.0 to
// 10.0 that GitHub code scanning reads: 9.0 and over critical, 7.0 to 8.9
// high, 4.0 to 6.9 medium, 0.1 to 3.9 low) given to a security rule of
// each default severity.
var SecuritySeverity = map[lint.Severity]string{lint.Error: "8.0", lint.Warning: "5.0", lint.Info: "2.0"}

// WriteSARIF writes a SARIF 2.1.0 log of one run: the tool's rules with
// their documentation, and one result per diagnostic with its physical
// location (file, line, column and byte region of the offending value),
// its tool as a logical location, and its fix as a replacement of bytes.
// Paths inside SourceRoot are written relative to it with uriBaseId
// %SRCROOT%, which originalUriBaseIds maps to SourceRoot's file URI; other
// paths become absolute file URIs. Columns count Unicode code points.
// Messages, which code scanning shows, pass guard.SARIFText; the other
// strings (the tool's name in its logical location, fingerprints, a fix's
// inserted bytes) are the values themselves, and the document holds them
// through guard.NewJSONWriter.
func WriteSARIF(w io.Writer, files []File, opt SARIFOptions) error {
	root, err := sourceRoot(opt.SourceRoot)
	if err != nil {
		return err
	}
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{
			Name: "mcplint", Version: opt.Version,
			InformationURI: "https://github.com/mcpfit/mcplint",
			Rules:          []sarifRule{},
		}},
		Results:            []sarifResult{},
		ColumnKind:         "unicodeCodePoints",
		OriginalURIBaseIDs: map[string]sarifArtifactLocate{srcRoot: {URI: fileURI(root, true)}},
		Invocations:        sarifInvocations(opt.Failures, root),
	}
	if opt.AutomationID != "" {
		run.AutomationDetails = &sarifAutomation{ID: opt.AutomationID}
	}
	index := map[string]int{}
	addRule := func(r *lint.Rule) {
		if _, ok := index[r.ID]; ok {
			return
		}
		index[r.ID] = len(run.Tool.Driver.Rules)
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRuleOf(r, opt.Rules))
	}
	for _, r := range opt.Rules {
		addRule(r)
	}
	// A fix that several findings share (one rewrite of a schema for each
	// of its references) is written with the first of them only: written
	// with each, the report grew with the square of the references. It is
	// described once too, whether it is written or not (past maxSARIFFix):
	// describing it copies the source it spans.
	written := map[*lint.Fix]bool{} // described fixes: whether written
	for _, f := range files {
		cols := &runeColumns{m: f.Manifest}
		for i := range f.Diagnostics {
			d := &f.Diagnostics[i]
			if _, ok := index[d.Rule]; !ok {
				addRule(&lint.Rule{ID: d.Rule, Summary: d.Rule, Severity: d.Severity})
			}
			loc := artifactLocation(d.File, root)
			res := sarifResult{
				RuleID: d.Rule, RuleIndex: index[d.Rule], Level: sarifLevel(d.Severity),
				Message: sarifMessage{Text: guard.SARIFText(fullMessage(d))},
				Locations: []sarifLocation{{
					Physical: sarifPhysical{Artifact: loc, Region: region(cols, d)},
					Logical:  []sarifLogical{{Name: shown(d.Tool), FullyQualifiedName: shown(d.Pointer), Kind: "object"}},
				}},
				PartialFinger: map[string]string{"mcplintFinding/v1": d.Rule + ":" + findingKey(d.Tool) + ":" + findingKey(d.RelPointer)},
			}
			if d.Fix != nil {
				done, described := written[d.Fix]
				if !described {
					fix := sarifFixOf(f.Manifest, d, loc)
					if fix != nil {
						res.Fixes = []sarifFix{*fix}
					}
					written[d.Fix] = fix != nil
				}
				if done || res.Fixes != nil {
					res.Properties = map[string]any{"fix": fixName(d.FixKind())}
				}
			}
			run.Results = append(run.Results, res)
		}
	}
	return writeJSON(w, sarifLog{Schema: sarifSchema, Version: sarifVersion, Runs: []sarifRun{run}})
}

func sarifRuleOf(r *lint.Rule, ran []*lint.Rule) sarifRule {
	doc := strings.TrimSpace(r.Doc)
	full := firstParagraph(doc)
	if full == "" {
		full = r.Summary
	}
	help := r.Summary
	if doc != "" {
		help = doc
	}
	tags := append([]string{}, r.Packs...)
	if tags == nil {
		tags = []string{}
	}
	props := sarifRuleProps{Tags: tags}
	if slices.Contains(r.Packs, SecurityPack) {
		props.SecuritySeverity = SecuritySeverity[r.Severity]
	}
	return sarifRule{
		ID: r.ID, Name: camel(r.ID),
		ShortDescription:     sarifMessage{Text: r.Summary},
		FullDescription:      sarifMessage{Text: full},
		HelpURI:              HelpURI(r.ID),
		Help:                 sarifMessage{Text: help, Markdown: RuleMarkdown(r, 3, ran)},
		DefaultConfiguration: sarifRuleLevel{Level: sarifLevel(r.Severity)},
		Properties:           props,
	}
}

func firstParagraph(s string) string {
	p, _, _ := strings.Cut(s, "\n\n")
	return strings.Join(strings.Fields(p), " ")
}

// camel turns a kebab-case ID into the CamelCase name SARIF viewers show.
func camel(id string) string {
	var b strings.Builder
	for _, part := range strings.Split(id, "-") {
		if part == "" {
			continue
		}
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String()
}

func sarifLevel(s lint.Severity) string {
	switch s {
	case lint.Error:
		return "error"
	case lint.Warning:
		return "warning"
	}
	return "note"
}

// srcRoot is the uriBaseId of the paths inside the source root.
const srcRoot = "%SRCROOT%"

// sourceRoot makes root absolute; "" is the current directory.
func sourceRoot(root string) (string, error) {
	if root == "" {
		root = "."
	}
	return filepath.Abs(root)
}

// artifactLocation names a file as a URI: a path inside root relative to
// %SRCROOT%, another as an absolute file URI, standard input as "stdin".
func artifactLocation(path, root string) sarifArtifactLocate {
	if path == "<stdin>" || path == "" {
		return sarifArtifactLocate{URI: "stdin"}
	}
	if rel, ok := underRoot(path, root); ok {
		return sarifArtifactLocate{URI: (&url.URL{Path: rel}).String(), URIBaseID: srcRoot}
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	return sarifArtifactLocate{URI: fileURI(abs, false)}
}

// underRoot returns path relative to root, with forward slashes, when it
// is inside root.
func underRoot(path, root string) (string, bool) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", false
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// fileURI is the file URI of an absolute path; a folder's ends with "/",
// as SARIF demands of originalUriBaseIds (§3.14.14).
func fileURI(abs string, folder bool) string {
	slash := filepath.ToSlash(abs)
	if !strings.HasPrefix(slash, "/") {
		slash = "/" + slash // C:/x
	}
	if folder && !strings.HasSuffix(slash, "/") {
		slash += "/"
	}
	return (&url.URL{Scheme: "file", Path: slash}).String()
}

// region is where d is: its start line and column, and, when the value it
// points at exists, the end and byte range of that value.
func region(cols *runeColumns, d *lint.Diagnostic) *sarifRegion {
	if d.Line == 0 {
		return nil
	}
	m := cols.m
	r := &sarifRegion{StartLine: d.Line, StartColumn: cols.column(d.Offset, d.Column)}
	// The position is the member's name; the region runs to the end of
	// its value.
	start, end := d.Offset, d.End.Offset
	if m == nil || d.End.Line == 0 || start < 0 || end <= start || end > len(m.Src) {
		return r
	}
	r.EndLine = d.End.Line
	r.EndColumn = cols.column(end, d.End.Column)
	n := end - start
	r.ByteOffset, r.ByteLength = &start, &n
	return r
}

// runeColumns converts byte columns into code point columns in one
// source. A line is counted once, in steps of columnStep bytes whose rune
// counts are kept: counting from the line's start for each finding took
// time in the square of the line for findings along a minified manifest's
// one line.
type runeColumns struct {
	m     *manifest.Manifest
	start int          // the line whose steps are kept
	steps []runeOffset // about columnStep bytes apart, at rune starts
	read  int          // bytes counted, for tests
}

// runeOffset is an offset in a line and the runes of the line before it.
type runeOffset struct{ off, runes int }

const columnStep = 4096

// column is the code point column of offset, at byte column byteCol.
func (c *runeColumns) column(offset, byteCol int) int {
	m := c.m
	if m == nil || offset < 0 || offset > len(m.Src) || byteCol < 1 {
		return byteCol
	}
	lineStart := offset - (byteCol - 1)
	if lineStart < 0 {
		return byteCol
	}
	if byteCol <= columnStep {
		c.read += offset - lineStart
		return utf8.RuneCount(m.Src[lineStart:offset]) + 1
	}
	if c.steps == nil || c.start != lineStart {
		c.start, c.steps = lineStart, []runeOffset{{lineStart, 0}}
	}
	for last := c.steps[len(c.steps)-1]; last.off+columnStep <= offset; last = c.steps[len(c.steps)-1] {
		next := last.off + columnStep
		for next < offset && !utf8.RuneStart(m.Src[next]) {
			next++
		}
		c.read += next - last.off
		c.steps = append(c.steps, runeOffset{next, last.runes + utf8.RuneCount(m.Src[last.off:next])})
	}
	k := sort.Search(len(c.steps), func(i int) bool { return c.steps[i].off > offset }) - 1
	c.read += offset - c.steps[k].off
	return c.steps[k].runes + utf8.RuneCount(m.Src[c.steps[k].off:offset]) + 1
}

// maxSARIFFix bounds the bytes a fix's replacement deletes or inserts in
// a SARIF report. The replacement runs from the fix's first edit to its
// last, the source between them included, so a fix whose edits are far
// apart in a tool with a 100 KB key carried the key in every result; a
// code-scanning reviewer reads no suggestion of that size, and `mcplint
// fix` still applies it. Real fixes are a few hundred bytes.
const maxSARIFFix = 64 << 10

// sarifFixOf describes d's fix as the replacement of one byte range: from
// the start of its first edit of the source to the end of its last, the
// bytes between them kept; nil when that passes maxSARIFFix.
func sarifFixOf(m *manifest.Manifest, d *lint.Diagnostic, loc sarifArtifactLocate) *sarifFix {
	if d.Fix == nil || len(d.Fix.TextEdits) == 0 || m == nil || loc.URI == "stdin" {
		return nil
	}
	edits := d.Fix.TextEdits
	start, end := edits[0].Start, edits[len(edits)-1].End
	del := end - start
	if del > maxSARIFFix {
		return nil
	}
	var text strings.Builder
	for i, e := range edits {
		if i > 0 {
			text.Write(m.Src[edits[i-1].End:e.Start])
		}
		text.WriteString(e.NewText)
	}
	if text.Len() > maxSARIFFix {
		return nil
	}
	msg := d.Fix.Message
	if msg == "" {
		msg = "apply mcplint's fix"
	}
	return &sarifFix{
		Description: sarifMessage{Text: guard.SARIFText(msg)},
		Changes: []sarifArtifactChange{{
			Artifact: loc,
			Replacements: []sarifReplacement{{
				Deleted:  sarifRegion{ByteOffset: &start, ByteLength: &del},
				Inserted: &sarifContent{Text: text.String()},
			}},
		}},
	}
}
