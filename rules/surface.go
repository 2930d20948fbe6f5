package rules

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/yosida95/uritemplate/v3"

	"github.com/mcpfit/mcplint/consumer"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
)

// surfaceRules check the rest of what a server publishes: its prompts,
// resources and resource templates, and its handshake result. They run on
// the results `mcplint check` lists and on the files its --save writes
// (manifest.Entry); a manifest of tools alone gives them nothing to read.
var surfaceRules = []*lint.Rule{SurfaceResultValid, PromptNameValid, ResourceURIValid, URITemplateValid, SurfaceNamesUnique, CapabilitiesMatch}

// SurfaceResultValid validates each result against the negotiated
// version's definition.
var SurfaceResultValid = &lint.Rule{
	ID:       "surface-result-valid",
	Packs:    []string{"mcp"},
	Severity: lint.Error,
	Consumers: []consumer.Refusal{
		{Consumer: consumer.MCPSpec, Line: "results", Source: "MCP schema.json of each version: ListPromptsResult, ListResourcesResult, ListResourceTemplatesResult, InitializeResult, DiscoverResult"},
		{Consumer: consumer.TSSDK, Line: "results", Source: "the TypeScript SDK parses each result with the zod schema of its type"},
	},
	Summary:      "each prompts/list, resources/list, resources/templates/list and handshake result is valid for the negotiated protocol version",
	Fix:          lint.NoFix,
	CheckSurface: checkSurfaceResultValid,
	Doc: `A client decodes every result with the definitions of the protocol version it
negotiated, and the TypeScript SDK, which most clients are built on, refuses
a result that does not parse: one prompt without a "name" costs the whole
list, and the user sees no prompt at all.

The rule validates each page of prompts/list (ListPromptsResult: Prompt,
PromptArgument), resources/list (ListResourcesResult: Resource,
Annotations), resources/templates/list (ListResourceTemplatesResult:
ResourceTemplate) and the handshake result (InitializeResult, or
DiscoverResult from 2026-07-28: ServerCapabilities, Implementation) against
the definitions of the version negotiated: the one the handshake result
names, or the one --protocol fixes. Members are checked as the version
defines them: "title" from 2025-06-18, "icons" from 2025-11-25, and from
2026-07-28 the cache members "resultType", "ttlMs" and "cacheScope" that
every list result requires. Members a version does not define are allowed.
The "uri" and "uriTemplate" formats are the business of resource-uri-valid
and uri-template-valid. A list whose capability the handshake result does not
declare is not checked: clients do not ask for it (the TypeScript SDK's
client answers such a call with an empty list without sending it, since
modelcontextprotocol/typescript-sdk#1386), and ` + "`mcplint check`" + ` does not either.

Bad:

    {"prompts": [{"description": "Summarize a file", "arguments": [{"name": "path", "required": "yes"}]}]}

Good:

    {"prompts": [{"name": "summarize", "description": "Summarize a file", "arguments": [{"name": "path", "required": true}]}]}

Source: MCP schema.json of each version (the definitions named above); the
test holds mcplint's reading of them to the official files.`,
}

// negotiated is the protocol version a surface was listed at: the one the
// run fixes, else the one its handshake result names, else the newest
// checked.
func negotiated(p *lint.SurfacePass) string {
	if !p.Before(p.Protocol) {
		return p.Protocol
	}
	if s := p.Manifest.Server; s != nil {
		v, _ := s.Value()
		res, _ := v.(map[string]any)
		if pv, ok := res["protocolVersion"].(string); ok && lint.ValidProtocol(pv) {
			return pv
		}
		if list, ok := res["supportedVersions"].([]any); ok {
			best := ""
			for _, e := range list {
				if s, ok := e.(string); ok && lint.ValidProtocol(s) && s > best {
					best = s
				}
			}
			if best != "" {
				return best
			}
		}
	}
	return p.Protocol
}

func checkSurfaceResultValid(p *lint.SurfacePass) {
	version := negotiated(p)
	defs := surfaceDefs(version)
	declared, known := declaredCapabilities(p.Manifest)
	for _, e := range p.Manifest.Results {
		if known && !manifest.Handshake(e.Name) && !declared[capabilityOf(e.Name)] {
			// A list no client asks for: whatever it holds breaks nobody.
			continue
		}
		def := resultDefinition(e.Name)
		if _, known := defs[def]; !known {
			continue
		}
		v, err := e.Value()
		if err != nil {
			continue
		}
		var problems []surfaceProblem
		checkDef(defs, v, def, "", "the result", &problems)
		for _, pr := range problems {
			p.Reportf(e, pr.ptr, "%s: %s (%s of protocol %s)", e.Describe(), pr.msg, def, version)
		}
	}
}

// PromptNameValid asks for names that clients can turn into commands.
var PromptNameValid = &lint.Rule{
	ID:       "prompt-name-valid",
	Packs:    []string{"mcp"},
	Severity: lint.Info,
	Consumers: []consumer.Refusal{
		{Consumer: consumer.ClaudeCode, Line: "prompt-names", Source: "https://code.claude.com/docs/en/mcp, \"Use MCP prompts as commands\"", Mangles: true},
		{Consumer: consumer.VSCode, Line: "prompt-names", Source: "https://code.visualstudio.com/docs/copilot/customization/mcp-servers, \"Use MCP prompts\"", Mangles: true},
	},
	Summary:      "prompt names are 1-128 characters of A-Z a-z 0-9 _ - ., argument names have no spaces",
	Fix:          lint.NoFix,
	CheckSurface: checkPromptNames,
	Doc: `Clients offer a server's prompts as commands the user types: Claude Code as
/mcp__SERVER__PROMPT, VS Code as /mcp.SERVER.PROMPT. A name with spaces,
slashes or other punctuation cannot be typed as one word; clients replace
those characters, so the command the user sees is not the prompt's name,
and two prompts that differ only there become one command. The rule asks of
prompt names what the specification asks of tool names (1 to 128 ASCII
letters, digits, underscores, hyphens and dots), and of argument names, which
users type or see as field labels, that they be non-empty and without
spaces or control characters. An empty prompt name is an error: prompts/get
has no way to ask for it.

Bad:

    {"name": "Code Review!", "arguments": [{"name": "file path"}]}

Good:

    {"name": "code_review", "title": "Code Review", "arguments": [{"name": "path", "title": "File path"}]}

Source: MCP specification 2025-11-25, server/tools, "Tool Names" (the
character set); Claude Code, https://code.claude.com/docs/en/mcp ("Use MCP
prompts as commands"); VS Code,
https://code.visualstudio.com/docs/copilot/customization/mcp-servers ("Use
MCP prompts").`,
}

func checkPromptNames(p *lint.SurfacePass) {
	for _, e := range p.Manifest.Prompts {
		v, err := e.Value()
		if err != nil {
			continue
		}
		obj, _ := v.(map[string]any)
		if name, ok := obj["name"].(string); ok {
			switch {
			case name == "":
				p.Report(e, lint.Diagnostic{Severity: lint.Error, RelPointer: "/name", Message: fmt.Sprintf("prompt %d has an empty name; prompts/get cannot ask for it", e.Index)})
			case utf8.RuneCountInString(name) > 128:
				p.Reportf(e, "/name", "%s: the name is %d characters long; keep it to 128", e.Describe(), utf8.RuneCountInString(name))
			default:
				if bad := badNameChars(name); bad != "" {
					p.Reportf(e, "/name", "%s: the name contains %s; clients turn prompts into commands (/mcp__SERVER__PROMPT) and replace such characters: use only A-Z a-z 0-9 _ - . (and a \"title\" for display)", e.Describe(), bad)
				}
			}
		}
		args, _ := obj["arguments"].([]any)
		for i, a := range args {
			arg, _ := a.(map[string]any)
			name, ok := arg["name"].(string)
			if !ok {
				continue
			}
			ptr := "/arguments/" + strconv.Itoa(i) + "/name"
			if name == "" {
				p.Reportf(e, ptr, "%s: argument %d has an empty name", e.Describe(), i)
				continue
			}
			if i := strings.IndexFunc(name, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }); i >= 0 {
				p.Reportf(e, ptr, "%s: argument name %q contains %s; use a single word (and a \"title\" for display)", e.Describe(), name, runeName(rune(name[i])))
			}
		}
	}
}

// badNameChars lists the characters of a name outside A-Z a-z 0-9 _ - .
func badNameChars(name string) string {
	var bad []string
	seen := map[rune]bool{}
	for _, r := range name {
		if validNameChar(r) || seen[r] {
			continue
		}
		seen[r] = true
		bad = append(bad, runeName(r))
	}
	return strings.Join(bad, ", ")
}

func runeName(r rune) string {
	switch {
	case r == ' ':
		return "a space"
	case unicode.IsSpace(r) || unicode.IsControl(r):
		return fmt.Sprintf("the control character U+%04X", r)
	}
	return strconv.QuoteRune(r)
}

// ResourceURIValid asks resources for absolute URIs.
var ResourceURIValid = &lint.Rule{
	ID:       "resource-uri-valid",
	Packs:    []string{"mcp"},
	Severity: lint.Warning,
	Consumers: []consumer.Refusal{
		{Consumer: consumer.MCPSpec, Line: "uris", Source: "MCP schema.json, Resource.uri (format uri)"},
	},
	Summary:      "resource URIs are absolute URIs (RFC 3986): a scheme, and no spaces or raw non-ASCII characters",
	Fix:          lint.NoFix,
	CheckSurface: checkResourceURIs,
	Doc: `A resource is named by its URI, which the client sends back in
resources/read and resources/subscribe. The schema declares it with format
"uri": an absolute URI as RFC 3986 defines it, with a scheme ("file:",
"https:", or the server's own, "notes:") and only the characters the RFC
allows, others percent-encoded. A relative path or a name with spaces is
not one: clients that parse the URI (to show it, to match it against a
template, to pick a handler for its scheme) fail on it or change it, and the
resources/read that follows asks for another resource.

Bad:

    {"uri": "notes/meeting notes.md", "name": "meeting-notes"}

Good:

    {"uri": "notes:///meeting%20notes.md", "name": "meeting-notes"}

Source: MCP schema.json, "Resource" (uri: string, format "uri"); MCP
specification 2025-11-25, server/resources, "Common URI Schemes"; RFC 3986,
section 4.3 ("Absolute URI").`,
}

func checkResourceURIs(p *lint.SurfacePass) {
	for _, e := range p.Manifest.Resources {
		if e.Key == "" {
			continue // no string uri: surface-result-valid reports it
		}
		if msg := uriProblem(e.Key); msg != "" {
			p.Reportf(e, "/uri", "%s: %s", e.Describe(), msg)
		}
	}
}

// uriProblem says why s is not an absolute URI, or "".
func uriProblem(s string) string {
	colon := strings.IndexByte(s, ':')
	scheme := ""
	if colon > 0 {
		scheme = s[:colon]
	}
	if scheme == "" || strings.IndexFunc(scheme, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '+' || r == '-' || r == '.')
	}) >= 0 || !(scheme[0] >= 'a' && scheme[0] <= 'z' || scheme[0] >= 'A' && scheme[0] <= 'Z') {
		return "the URI has no scheme; a resource URI is absolute (file:///…, https://…, or a scheme of the server's own)"
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%':
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return fmt.Sprintf("the URI has a %% at byte %d that starts no percent-encoding; write %%25", i)
			}
		case c >= 0x80:
			return fmt.Sprintf("the URI contains a non-ASCII character at byte %d; percent-encode it (UTF-8, then %%XX)", i)
		case !uriChar(c):
			return fmt.Sprintf("the URI contains %s at byte %d, which RFC 3986 does not allow; percent-encode it", runeName(rune(c)), i)
		}
	}
	return ""
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// uriChar reports whether c may appear as itself in a URI: unreserved,
// gen-delims and sub-delims (RFC 3986, section 2).
func uriChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-._~:/?#[]@!$&'()*+,;=", c) >= 0
}

// URITemplateValid parses resource templates as RFC 6570 templates.
var URITemplateValid = &lint.Rule{
	ID:       "uri-template-valid",
	Packs:    []string{"mcp"},
	Severity: lint.Error,
	Consumers: []consumer.Refusal{
		{Consumer: consumer.MCPSpec, Line: "uri-templates", Source: "MCP schema.json, ResourceTemplate.uriTemplate (format uri-template, RFC 6570)"},
	},
	Summary:      "resource templates' uriTemplate parses as an RFC 6570 URI template",
	Fix:          lint.NoFix,
	CheckSurface: checkURITemplates,
	Doc: `A resource template tells the client how to build the URIs of the resources
it stands for: the client expands "uriTemplate" with values for its
variables (the user's choice, or completion/complete's suggestions) and
reads the result. The specification defines the template as an RFC 6570
URI template. One that does not parse (an unclosed brace, an operator RFC
6570 does not know, a variable name with a space) cannot be expanded: the
client shows the template but can read none of its resources.

Bad:

    {"uriTemplate": "file:///{path", "name": "file"}
    {"uriTemplate": "users://{user id}/profile", "name": "profile"}

Good:

    {"uriTemplate": "file:///{+path}", "name": "file"}
    {"uriTemplate": "users://{user_id}/profile", "name": "profile"}

Source: MCP schema.json, "ResourceTemplate" (uriTemplate: string, format
"uri-template"); MCP specification 2025-11-25, server/resources, "Resource
Templates"; RFC 6570, section 2 ("Syntax"). Parsed with
github.com/yosida95/uritemplate/v3, the parser the Go MCP SDK uses.`,
}

func checkURITemplates(p *lint.SurfacePass) {
	for _, e := range p.Manifest.Templates {
		if e.Key == "" {
			continue // no string uriTemplate: surface-result-valid reports it
		}
		if _, err := uritemplate.New(e.Key); err != nil {
			p.Reportf(e, "/uriTemplate", "%s: not an RFC 6570 URI template: %v; a client cannot expand it into resource URIs", e.Describe(), strings.TrimPrefix(err.Error(), "uritemplate:"))
		}
	}
}

// SurfaceNamesUnique reports entries that share their identifier.
var SurfaceNamesUnique = &lint.Rule{
	ID:       "surface-names-unique",
	Packs:    []string{"mcp"},
	Severity: lint.Error,
	Consumers: []consumer.Refusal{
		{Consumer: consumer.MCPSpec, Line: "surface-names", Source: "MCP specification, server/prompts (prompts/get by name) and server/resources (resources/read by uri)"},
	},
	Summary:      "prompt names, resource URIs, template URI templates and a prompt's argument names are unique",
	Fix:          lint.NoFix,
	CheckSurface: checkSurfaceNamesUnique,
	Doc: `A client asks for a prompt by its name (prompts/get) and reads a resource by
its URI (resources/read); a prompt's arguments arrive as an object keyed by
argument name. Two prompts with one name, two resources with one URI, two
templates with one URI template or two arguments of one prompt with one
name cannot be told apart: the client lists both and gets the same one (or
an error) whichever the user picks, and a value can be given for only one
of the arguments. Pages count together: a name repeated on the next page of
a list is a duplicate too.

Bad:

    {"prompts": [{"name": "review"}, {"name": "review", "description": "Review a diff"}]}

Good:

    {"prompts": [{"name": "review_file"}, {"name": "review_diff", "description": "Review a diff"}]}

Source: MCP specification 2025-11-25, server/prompts ("Getting a Prompt":
by name), server/resources ("Reading Resources": by uri); schema.json,
GetPromptRequest (arguments: an object of strings keyed by name).`,
}

func checkSurfaceNamesUnique(p *lint.SurfacePass) {
	m := p.Manifest
	for _, group := range []struct {
		entries []*manifest.Entry
		ptr     string
		what    string
	}{
		{m.Prompts, "/name", "name"},
		{m.Resources, "/uri", "URI"},
		{m.Templates, "/uriTemplate", "URI template"},
	} {
		first := map[string]*manifest.Entry{}
		for _, e := range group.entries {
			if e.Key == "" {
				continue
			}
			if f, dup := first[e.Key]; dup {
				pos := f.Locate("")
				p.Reportf(e, group.ptr, "%s: the %s is also that of %s %d (line %d); a client cannot tell them apart: give each its own", e.Describe(), group.what, f.Kind, f.Index, pos.Line)
				continue
			}
			first[e.Key] = e
		}
	}
	for _, e := range m.Prompts {
		v, err := e.Value()
		if err != nil {
			continue
		}
		args, _ := v.(map[string]any)["arguments"].([]any)
		seen := map[string]int{}
		for i, a := range args {
			arg, _ := a.(map[string]any)
			name, ok := arg["name"].(string)
			if !ok || name == "" {
				continue
			}
			if j, dup := seen[name]; dup {
				p.Reportf(e, "/arguments/"+strconv.Itoa(i)+"/name", "%s: arguments %d and %d are both named %q; prompts/get takes one value per name", e.Describe(), j, i, name)
				continue
			}
			seen[name] = i
		}
	}
}
