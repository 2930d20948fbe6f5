package rules

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mcpfit/mcplint/consumer"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/schema"
)

var namingRules = []*lint.Rule{ToolNameValid, ToolNameUnique, DescriptionPresent}

// ToolNameValid enforces the spec's tool-name format.
var ToolNameValid = &lint.Rule{
	ID:       "tool-name-valid",
	Packs:    []string{"mcp"},
	Subject:  "tool-name",
	Severity: lint.Warning,
	Consumers: []consumer.Refusal{
		{Consumer: consumer.MCPSpec, Line: "name", Source: "MCP specification 2025-11-25, server/tools, \"Tool Names\""},
		{Consumer: consumer.MCPSpec, Line: "name-present", Some: true, Source: "MCP schema.json, Tool (name: string, required)"},
	},
	Summary: "tool names are 1-128 characters of A-Z a-z 0-9 _ - .",
	Fix:     lint.NoFix,
	Check:   checkToolName,
	Doc: `A tool's name is how a model calls it. From protocol 2025-11-25 the
specification says tool names SHOULD be 1 to 128 characters long and SHOULD
use only ASCII letters, digits, underscore, hyphen and dot: no spaces, commas,
slashes or other characters. Clients build identifiers and API requests from
the name, and providers refuse the others: the Anthropic API rejects a whole
request when one tool name fails '^[a-zA-Z0-9_-]{1,128}$'.

A missing or empty name is an error at every protocol version: "name" is a
required string of Tool in every published schema.

There is no automatic fix: renaming a tool breaks every agent and prompt that
calls it by name. Rename it in the server.

Bad:

    {"name": "files/read file", "inputSchema": {"type": "object"}}

Good:

    {"name": "files.read_file", "inputSchema": {"type": "object"}}

Source: MCP specification 2025-11-25 and 2026-07-28, server/tools, "Tool
Names"; schema.json "Tool" (name: string, required).`,
}

// specName is the specification's rule for names (its profile's Name
// line), which prompt names follow too.
var specName = consumer.ProfileOf(consumer.MCPSpec).NameLine()

func validNameChar(r rune) bool { return specName.NameChar(r) }

func checkToolName(p *lint.Pass) {
	raw, ok := p.Value["name"]
	name, isString := raw.(string)
	must := consumersWith(p, "name-present")
	switch {
	case !ok:
		p.Report(lint.Diagnostic{Severity: lint.Error, Consumers: must, Message: "tool has no \"name\"; every tool needs a unique name"})
		return
	case !isString:
		p.Report(lint.Diagnostic{Severity: lint.Error, Consumers: must, RelPointer: "/name", Message: "tool name is a " + schema.Kind(raw) + ", not a string"})
		return
	case name == "":
		p.Report(lint.Diagnostic{Severity: lint.Error, Consumers: must, RelPointer: "/name", Message: "tool name is empty"})
		return
	}
	if !p.Since("2025-11-25") {
		return
	}
	for _, f := range ruleFindings(p, "name") {
		is := nameIssuesOf(f.line, name)
		msg := "tool name " + strconv.Quote(name) + " " + is.String() + "; use only A-Z a-z 0-9 _ - ."
		if len(is.bad) == 0 {
			msg = "tool name is " + strconv.Itoa(is.long) + " characters long; the spec allows at most " + strconv.Itoa(is.max)
		}
		p.Report(lint.Diagnostic{RelPointer: "/name", Consumers: f.consumers, Message: msg})
	}
}

// nameIssues is how a tool name breaks a consumer's Name line
// (consumer.Line): the characters its alphabet lacks, a first character
// that may not start a name, a length over its bound.
type nameIssues struct {
	// fixed is the name with each refused character replaced by "_", and
	// "_" put before a first character that may not start a name.
	fixed string
	bad   []string // the refused characters, described once each
	first string   // the first character, described, when it may not start a name
	long  int      // the name's length in characters, when over the bound
	max   int      // the bound
}

// nameIssuesOf checks name against the Name line l.
func nameIssuesOf(l *consumer.Line, name string) nameIssues {
	var is nameIssues
	var n int
	is.fixed, is.bad, n = replaceOutside(name, l.NameChar)
	if r, _ := utf8.DecodeRuneInString(name); name != "" && !l.NameFirst(r) {
		is.first = describeRune(r)
		is.fixed = "_" + is.fixed
	}
	if l.Max > 0 && n > l.Max {
		is.long, is.max = n, l.Max
	}
	return is
}

// String says what is wrong, for a message: "starts with '1' and contains
// '/', a space", "is 70 characters long".
func (is nameIssues) String() string {
	var parts []string
	if is.first != "" {
		parts = append(parts, "starts with "+is.first)
	}
	if len(is.bad) > 0 {
		parts = append(parts, "contains "+strings.Join(is.bad, ", "))
	}
	if is.long > 0 {
		parts = append(parts, "is "+strconv.Itoa(is.long)+" characters long, over "+strconv.Itoa(is.max))
	}
	return strings.Join(parts, " and ")
}

// cutName is name cut to at most max characters.
func cutName(name string, max int) string {
	if utf8.RuneCountInString(name) <= max {
		return name
	}
	return string([]rune(name)[:max])
}

func describeRune(r rune) string {
	switch r {
	case ' ':
		return "a space"
	case '\t':
		return "a tab"
	}
	if r < 0x20 || r == 0x7f || !utf8.ValidRune(r) {
		return fmt.Sprintf("control character U+%04X", r)
	}
	if r > 0x7e {
		return fmt.Sprintf("%q (U+%04X)", r, r)
	}
	return strconv.QuoteRune(r) // as %q, without fmt: list rules describe a rune per tool
}

// replaceOutside replaces each character of name that ok refuses by "_",
// as VS Code and the fixes do, and returns the result (name itself when
// nothing is refused), the refused characters described (describeRune),
// each once in order of appearance, and the number of characters of name.
// The name rules see every tool of a list, so the common case (a name of
// allowed ASCII) allocates nothing.
func replaceOutside(name string, ok func(rune) bool) (fixed string, bad []string, chars int) {
	return rewriteName(name, ok, true)
}

// refusedChars is replaceOutside without the descriptions, for the list
// passes, which only compare the names they would become: it reports
// whether any character was replaced.
func refusedChars(name string, ok func(rune) bool) (fixed string, refused bool, chars int) {
	fixed, _, chars = rewriteName(name, ok, false)
	return fixed, fixed != name, chars
}

func rewriteName(name string, ok func(rune) bool, describe bool) (fixed string, bad []string, chars int) {
	i := 0
	for i < len(name) && name[i] < utf8.RuneSelf && ok(rune(name[i])) {
		i++
	}
	if i == len(name) {
		return name, nil, len(name)
	}
	var b strings.Builder
	b.Grow(len(name))
	b.WriteString(name[:i])
	var seen []rune
	chars = i
	for _, r := range name[i:] {
		chars++
		if ok(r) {
			b.WriteRune(r)
			continue
		}
		b.WriteByte('_')
		if describe && !slices.Contains(seen, r) {
			seen = append(seen, r)
			bad = append(bad, describeRune(r))
		}
	}
	return b.String(), bad, chars
}

// ToolNameUnique reports tools that share a name.
var ToolNameUnique = &lint.Rule{
	ID:       "tool-name-unique",
	Packs:    []string{"mcp"},
	Severity: lint.Error,
	Consumers: []consumer.Refusal{
		{Consumer: consumer.MCPSpec, Line: "unique-names", Source: "MCP specification, server/tools, \"Tool\" (name: a unique identifier)"},
	},
	Summary:   "tool names are unique within a server",
	Fix:       lint.NoFix,
	CheckList: checkToolNameUnique,
	Doc: `Clients address tools by name. When two tools share one, a client keeps
one of them (which one differs between clients) or refuses the list, and a
model cannot tell them apart. The specification says tool names SHOULD be
unique within a server; the Anthropic and OpenAI APIs reject a request whose
tools repeat a name, so a duplicate breaks every call, not only the duplicate.

Every repetition after the first is reported, pointing at the first.

Bad:

    {"tools": [{"name": "search", ...}, {"name": "search", ...}]}

Good:

    {"tools": [{"name": "search_issues", ...}, {"name": "search_code", ...}]}

Source: MCP specification 2025-11-25 and 2026-07-28, server/tools, "Tool
Names" ("Tool names SHOULD be unique within a server").`,
}

func checkToolNameUnique(p *lint.ListPass) {
	for _, t := range p.Manifest.Tools {
		if t.Name == "" {
			continue
		}
		if f := p.ToolNamed(t.Name); f != t {
			pos := f.Locate("/name")
			p.Reportf(t, "/name", "tool name %q is already used by tool %d (line %d)", t.Name, f.Index, pos.Line)
		}
	}
}

// DescriptionPresent asks for a description.
var DescriptionPresent = &lint.Rule{
	ID:       "description-present",
	Packs:    []string{"mcp"},
	Severity: lint.Warning, Harm: lint.Risks,
	Summary: "every tool has a non-empty description",
	Fix:     lint.NoFix,
	Check:   checkDescription,
	// A description that is no string is tool-fields-valid's error.
	Defers: []*lint.Rule{ToolFieldsValid},
	Doc: `The description is what the model reads to decide when to call a tool
and how. Without one, the model guesses from the name alone, picks the wrong
tool, or never calls it. The specification lists "description" among a tool's
fields ("Human-readable description of functionality"); it is optional in the
schema, which is why this is a warning.

mcplint cannot write your description for you, so there is no fix.

Bad:

    {"name": "run", "inputSchema": {"type": "object"}}

Good:

    {"name": "run", "description": "Run a SQL query against the analytics database and return up to 100 rows.", "inputSchema": {"type": "object"}}

Source: MCP specification, server/tools, "Tool" data type (every version).`,
}

func checkDescription(p *lint.Pass) {
	d, ok := p.Value["description"]
	if !ok {
		p.Reportf("", "tool %q has no description; the model needs one to know when and how to call it", toolLabel(p))
		return
	}
	s, isString := d.(string)
	if !isString {
		if !p.Runs(ToolFieldsValid) {
			p.Reportf("/description", "description is %s, not a string", schema.KindWithArticle(d))
		}
		return
	}
	if strings.TrimSpace(s) == "" {
		p.Reportf("/description", "description of tool %q is blank", toolLabel(p))
	}
}

func toolLabel(p *lint.Pass) string {
	if p.Tool.Name != "" {
		return p.Tool.Name
	}
	return fmt.Sprintf("#%d", p.Tool.Index)
}
