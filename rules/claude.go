package rules

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mcpfit/mcplint/consumer"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/normalize"
)

var claudeRules = []*lint.Rule{ClaudeToolName, ClaudePrefixedNameLength, ClaudeRootCombinator, ClaudeSchema2020, ClaudeOutputSchemaDialect}

// anthropicName is the Anthropic API's rule for tool names (its profile's
// Name line), and claudeNameMax the longest name it takes ("tools.N.custom.name:
// String should have at most 128 characters").
var (
	anthropicName = consumer.ProfileOf(consumer.Anthropic).NameLine()
	claudeNameMax = anthropicName.Max
)

// claudeReferenceMax is the longest tool name a tool_reference may carry:
// Claude Code refers to deferred MCP tools by their prefixed name, and the
// API refuses more than 64 characters there.
const claudeReferenceMax = 64

func claudeNameChar(r rune) bool { return anthropicName.NameChar(r) }

// ClaudeToolName enforces the Anthropic API's tool name pattern.
var ClaudeToolName = &lint.Rule{
	ID:       "claude-tool-name",
	Packs:    []string{"claude"},
	Subject:  "tool-name",
	Severity: lint.Warning,
	Consumers: []consumer.Refusal{
		{Consumer: consumer.Anthropic, Line: "name", Error: "String should match pattern '^[a-zA-Z0-9_-]{1,128}$'", Source: "home-assistant/core#147760"},
	},
	Summary:   "tool names match the Anthropic API's ^[a-zA-Z0-9_-]{1,128}$",
	Fix:       lint.UnsafeFix,
	CheckList: checkClaudeToolName,
	Doc: `Claude Desktop, Claude Code and every client that passes MCP tools to the
Anthropic Messages API send each tool's name as a custom tool name, and the
API checks it against ^[a-zA-Z0-9_-]{1,128}$. One name that fails fails the
whole request, so none of the server's tools (nor any other server's) can be
used. The MCP specification allows dots in tool names ("admin.tools.list");
the Anthropic API does not.

The error:

    tools.0.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'

The fix (unsafe: agents and prompts that call the tool by its old name
break) replaces every other character by "_". It is offered only when the new
name is no longer than 128 characters and is not the name of another tool.

Bad:

    {"name": "caldav-mcp.create-event", ...}

Good:

    {"name": "caldav-mcp_create-event", ...}

Source: Anthropic Messages API, tools[].name: the error above as Claude Code
shows it, quoted in modelcontextprotocol/modelcontextprotocol#1345 (a name
with spaces) and jedisct1/openapi-mcp#9 (names with "/"); the length of 128
in anthropics/claude-code#16425.`,
}

func checkClaudeToolName(p *lint.ListPass) {
	given := map[string]bool{} // the names tools are renamed to
	for _, t := range p.Manifest.Tools {
		name := t.Name
		if name == "" {
			continue // tool-name-valid reports a missing or empty name
		}
		fixed, refused, n := refusedChars(name, claudeNameChar)
		switch {
		case refused:
			// Which tool gets a rename to a name is decided here, in the
			// tools' order; the finding is made when the tool's turn comes.
			blocked := n <= claudeNameMax && (given[fixed] || p.ToolNamed(fixed) != nil)
			if n <= claudeNameMax && !blocked {
				given[fixed] = true
			}
			p.ReportFunc(t, func() lint.Diagnostic {
				// Made only if kept: the OpenAI rule's finding usually is.
				complete := func() (string, *lint.Fix) { return claudeNameMessage(t.Name, blocked) }
				return lint.Diagnostic{RelPointer: "/name", Complete: complete}
			})
		case n > claudeNameMax:
			p.Reportf(t, "/name", "tool name is %d characters long; the Anthropic API refuses the whole request over %d: shorten it", n, claudeNameMax)
		}
	}
}

// claudeNameMessage is the message and fix of the finding about a tool
// name with characters the Anthropic API refuses; blocked says that another
// tool has, or was given, the name it would be renamed to.
func claudeNameMessage(name string, blocked bool) (string, *lint.Fix) {
	to, bad, n := replaceOutside(name, claudeNameChar)
	// Concatenated rather than formatted: one finding per tool.
	msg := "tool name " + strconv.Quote(name) + " contains " + strings.Join(bad, ", ") + "; the Anthropic API refuses the whole request (it wants ^[a-zA-Z0-9_-]{1,128}$): use only A-Z a-z 0-9 _ -"
	var fix *lint.Fix
	switch {
	case n > claudeNameMax:
		msg += fmt.Sprintf(", and at most %d characters (it has %d)", claudeNameMax, n)
	case blocked:
		msg += fmt.Sprintf(" (no automatic rename: %q is taken)", to)
	default:
		fix = &lint.Fix{
			Message: fmt.Sprintf("rename the tool to %q (callers that use the old name break)", to),
			Edits:   []manifest.Edit{{Op: manifest.Replace, Pointer: "/name", Value: to}},
		}
	}
	return msg, fix
}

// ClaudePrefixedNameLength checks the name Claude Code gives an MCP tool.
var ClaudePrefixedNameLength = &lint.Rule{
	ID:       "claude-prefixed-name-length",
	Packs:    []string{"claude"},
	Subject:  "tool-name",
	Severity: lint.Warning,
	Consumers: []consumer.Refusal{
		{Consumer: consumer.ClaudeCode, Line: "prefixed-name", Error: "tool_reference.tool_name: String should have at most 64 characters", Source: "anthropics/claude-code#20830"},
		{Consumer: consumer.ClaudeAI, Line: "name-length", Error: "String should have at most 64 characters", Source: "mims-harvard/ToolUniverse#3"},
	},
	Summary: "mcp__<server>__<tool>, the name Claude Code gives a tool, is at most 64 characters",
	Fix:     lint.NoFix,
	Options: map[string]any{"server-name": ""},
	Check:   checkClaudePrefixedName,
	Doc: `Claude Code names an MCP tool mcp__<server>__<tool>, where <server> is the
name the user gave the server in their configuration (a plugin's server is
mcp__plugin_<plugin>_<server>__<tool>). When it defers tools and the model
finds one through tool search, the API receives that name in a
tool_reference, which takes at most 64 characters; a longer name fails the
request:

    messages.63.content.0.tool_result.content.0.tool_reference.tool_name: String should have at most 64 characters

Option "server-name" (or the --server-name flag) is the server name to count
with; for a plugin's server give "plugin_<plugin>_<server>". Without it the
server name is unknown, so the rule assumes the shortest one, a single
character, and reports only tool names that cannot fit under any server name
(more than 56 characters).

Claude Desktop and claude.ai allow the tool name itself no more than 64
characters when they connect to a remote server, and a name that long is
reported here under any server name:

    tools.13.FrontendRemoteMcpToolDefinition.name: String should have at most 64 characters

There is no fix: only you can choose a shorter name, and renaming a tool
breaks its callers.

Bad (server "atlassian" in plugin "atlassian"):

    mcp__plugin_atlassian_atlassian__getJiraProjectIssueTypesMetadata   (65)

Good:

    mcp__plugin_atlassian_atlassian__getJiraIssueTypes                  (50)

Source: anthropics/claude-code#20830 and #23149 (the error above, and the
naming scheme); anthropics/claude-code#16425 (tool_reference.tool_name is
limited to 64 characters where a tool name may have 128);
mims-harvard/ToolUniverse#3 and malloydata/publisher#543 (claude.ai and Claude
Desktop remote connectors).`,
}

func checkClaudePrefixedName(p *lint.Pass) {
	name := p.Tool.Name
	if name == "" {
		return
	}
	server, _ := p.Option("server-name").(string)
	n := len([]rune(name))
	// claude.ai's connectors count the tool's own name; Claude Code the
	// name it builds.
	who := consumersOf(p, consumer.ClaudeCode)
	if n > claudeReferenceMax {
		who = p.Rule.Consumers
	}
	report := func(format string, args ...any) {
		p.Report(lint.Diagnostic{RelPointer: "/name", Message: fmt.Sprintf(format, args...), Consumers: who})
	}
	if server == "" {
		if 5+1+2+n > claudeReferenceMax {
			report("tool name is %d characters long, so Claude Code's mcp__<server>__%s is over %d characters under any server name and fails once the tool is found by tool search: shorten it to at most %d", n, name, claudeReferenceMax, claudeReferenceMax-8)
		}
		return
	}
	full := "mcp__" + server + "__" + name
	m := len([]rune(full))
	switch room := claudeReferenceMax - (m - n); {
	case m <= claudeReferenceMax:
	case room < 1:
		report("Claude Code names this tool %s, %d characters; over %d it fails once the tool is found by tool search, and the server name %q leaves no room for any tool name: shorten the server name", full, m, claudeReferenceMax, server)
	default:
		report("Claude Code names this tool %s, %d characters; over %d it fails once the tool is found by tool search: shorten the tool name to at most %d characters (or the server name)", full, m, claudeReferenceMax, room)
	}
}

// ClaudeRootCombinator refuses allOf, anyOf and oneOf at the root of an
// input schema.
var ClaudeRootCombinator = &lint.Rule{
	ID:       "claude-root-combinator",
	Packs:    []string{"claude"},
	Subject:  "root-combinator",
	Severity: lint.Warning,
	Consumers: []consumer.Refusal{
		{Consumer: consumer.Anthropic, Line: "root-combinators", Error: "input_schema does not support oneOf, allOf, or anyOf at the top level", Source: "nspady/google-calendar-mcp#39"},
	},
	Summary: "inputSchema has no oneOf, anyOf or allOf at its root",
	Fix:     lint.MixedFix,
	Check:   checkClaudeRootCombinator,
	Doc: `The Anthropic Messages API refuses a tool whose input_schema combines
schemas at its root, and with it the whole request, so in Claude Code one
such tool makes every tool of every server unusable:

    tools.73.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level

Zod's z.union, z.discriminatedUnion and z.intersection, and pydantic models
with a Union root, produce such schemas.

The fix removes the combinator:

  - allOf whose branches are object schemas that merge without conflict is
    merged into the root; the schema accepts exactly what it accepted, so
    the fix is safe.
  - anyOf or oneOf of object variants becomes one object with every
    variant's properties, requiring only what all variants require. That
    accepts more than before (the "one of these shapes" constraint is
    lost; the variants are described at the end of the root description),
    so the fix is unsafe and its message says so. A property one variant
    names and another admits as an extra key is left unconstrained, so that
    no call accepted before is refused; give every variant
    "additionalProperties": false to keep its schema. The server must still
    check which combination it received.
  - Anything else (a variant that is not an object, a conflict, a $ref into
    the combinator) is reported without a fix, with the reason.

Bad:

    "inputSchema": {"anyOf": [
      {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]},
      {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
    ]}

Good:

    "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}, "name": {"type": "string"}}}

Source: Anthropic Messages API error quoted in nspady/google-calendar-mcp#39,
anthropics/claude-code#4886 and #3383.`,
}

func checkClaudeRootCombinator(p *lint.Pass) {
	root, ok := p.InputSchema()
	if !ok || !normalize.HasRootCombinator(root) {
		return
	}
	kws, _ := rootCombinators(ruleFindings(p))
	if len(kws) == 0 {
		return
	}
	ptr := "/inputSchema/" + kws[0]
	msg := fmt.Sprintf("inputSchema has %s at its root, which the Anthropic API refuses (and with it every tool of the request)", strings.Join(kws, " and "))
	fixed, losses := normalize.RootCombinators(root)
	if normalize.HasRootCombinator(fixed) {
		why := "it cannot be merged"
		if len(losses) > 0 {
			why = losses[0].What
		}
		p.Reportf(ptr, "%s; rewrite it as one object schema (no automatic fix: %s)", msg, why)
		return
	}
	fix := &lint.Fix{
		Message: "merge the allOf branches into the root",
		Safe:    len(losses) == 0,
		Edits:   lint.Diff("/inputSchema", root, fixed),
	}
	if fix.Safe {
		p.ReportFix(ptr, fix, "%s; merge it into one object schema (the fix merges the branches exactly)", msg)
		return
	}
	var what []string
	for _, l := range losses {
		what = append(what, l.What)
	}
	fix.Message = "merge the variants into one object that accepts more than before"
	p.ReportFix(ptr, fix, "%s; merge it into one object schema (the unsafe fix does, and accepts more than before: %s)", msg, strings.Join(what, "; "))
}
