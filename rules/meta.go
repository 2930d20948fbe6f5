package rules

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mcpfit/mcplint/consumer"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/pointer"
	"github.com/mcpfit/mcplint/schema"
)

var metaRules = []*lint.Rule{MetaKeyValid}

// MetaKeyValid checks the keys of a tool's _meta.
var MetaKeyValid = &lint.Rule{
	ID:       "meta-key-valid",
	Packs:    []string{"mcp"},
	Severity: lint.Error,
	Consumers: []consumer.Refusal{
		{Consumer: consumer.MCPSpec, Line: "meta", Source: "MCP schema.json, _meta; specification 2025-06-18, basic, \"General fields\""},
		{Consumer: consumer.TSSDK, Line: "meta", Source: "the TypeScript SDK parses _meta as an object at every version"},
	},
	Summary: "_meta keys follow the specification's key format and keep out of MCP's reserved prefixes",
	Fix:     lint.NoFix,
	Check:   checkMetaKeys,
	Doc: `A tool's "_meta" carries metadata for clients ("ui" for MCP Apps,
"openai/outputTemplate" for ChatGPT apps). From protocol 2025-06-18 the
specification gives its keys a format: an optional prefix, a series of
dot-separated labels followed by a slash, then a name.

- Each label MUST start with a letter and end with a letter or digit, with
  letters, digits and hyphens between ("com.example", not "com..example",
  "1password" or "my_org").
- The name, unless empty, MUST begin and end with a letter or digit, with
  letters, digits, hyphens, underscores and dots between ("outputTemplate",
  not "_private", "my key" or "a/b").

A key that breaks the format is an error: the specification makes it a
MUST, so clients and SDKs that check keys may refuse it. The name may be
empty ("com.example/" is valid).

Prefixes are reserved for MCP itself when their second label is
"modelcontextprotocol" or "mcp" ("io.modelcontextprotocol/", "dev.mcp/",
"com.mcp.tools/"; not "com.example.mcp/"). A key under a reserved prefix is
a warning, not an error: the specification defines no "_meta" key for tools,
but official extensions define theirs under "io.modelcontextprotocol/", so
such a key may be legitimate; if it is your own, move it under your own
reverse-DNS prefix. Protocol 2025-06-18 worded the reservation differently:
any prefix with "modelcontextprotocol" or "mcp" followed by at least one
more label ("modelcontextprotocol.io/", "tools.mcp.com/"); the rule applies
the wording of the protocol checked. Labels are compared without regard to
case, as DNS compares them.

Keys are checked from protocol 2025-06-18, which put "_meta" on Tool and
gave keys a format. A "_meta" that is not a JSON object is an error at
every version: the TypeScript SDK's client parses a tool's "_meta" as an
object whatever version was negotiated, and refuses the whole tools/list
otherwise (@modelcontextprotocol/sdk ListToolsResultSchema). There is no fix: a renamed key is a different key to every
client that reads it.

Bad:

    "_meta": {"_internal": true, "my key": 1, "io.modelcontextprotocol/owner": "me"}

Good:

    "_meta": {"com.example/internal": true, "com.example/my-key": 1, "com.example/owner": "me"}

Source: MCP specification 2025-06-18, 2025-11-25 and 2026-07-28, basic,
"General fields", "_meta" ("Key name format", "Prefix", "Name"); 2026-07-28
schema.ts "MetaObject"; schema.json "Tool._meta" (an object).`,
}

func checkMetaKeys(p *lint.Pass) {
	v, ok := p.Value["_meta"]
	if !ok {
		return
	}
	meta, isObject := v.(map[string]any)
	if !isObject {
		p.Reportf("/_meta", "_meta is %s; it must be an object mapping keys to values", schema.KindWithArticle(v))
		return
	}
	if !p.Since("2025-06-18") {
		return
	}
	for _, key := range slices.Sorted(maps.Keys(meta)) {
		ptr := "/_meta/" + pointer.Escape(key)
		if problems := metaKeyProblems(key); len(problems) > 0 {
			p.Reportf(ptr, "_meta key %q breaks the key format: %s; use letters, digits and hyphens in dot-separated labels, then \"/\" and a name, as in \"com.example/my-key\"", key, strings.Join(problems, "; "))
			continue
		}
		label, reserved := reservedMetaPrefix(key, p.Protocol)
		if !reserved && p.Before("2025-11-25") {
			// The wording changed: a key reserved under 2025-06-18 still
			// clashes for those clients.
			label, reserved = reservedMetaPrefix(key, "2025-06-18")
		}
		if reserved {
			prefix, _, _ := strings.Cut(key, "/")
			p.Report(lint.Diagnostic{Severity: lint.Warning, RelPointer: ptr, Message: fmt.Sprintf(
				"_meta key %q uses the prefix %q, which is reserved for MCP (it has the label %q); unless an official MCP extension defines this key, move it under your own reverse-DNS prefix, as in \"com.example/...\"", key, prefix+"/", label)})
		}
	}
}

// metaKeyProblems checks a key against the format: [labels "/"] name.
func metaKeyProblems(key string) []string {
	var out []string
	name := key
	if prefix, rest, hasPrefix := strings.Cut(key, "/"); hasPrefix {
		name = rest
		for _, label := range strings.Split(prefix, ".") {
			if msg := labelProblem(label); msg != "" {
				out = append(out, msg)
			}
		}
		if strings.Contains(name, "/") {
			return append(out, fmt.Sprintf("it has more than one \"/\" (the name %q may not contain one)", name))
		}
	}
	if name != "" && !validMetaName(name) {
		out = append(out, fmt.Sprintf("the name %q must begin and end with a letter or digit, with only letters, digits, '-', '_' and '.' between", name))
	}
	return out
}

func labelProblem(label string) string {
	if label == "" {
		return "the prefix has an empty label"
	}
	first, last := label[0], label[len(label)-1]
	ok := isASCIILetter(first) && (isASCIILetter(last) || isASCIIDigit(last))
	for i := 0; i < len(label) && ok; i++ {
		c := label[i]
		ok = isASCIILetter(c) || isASCIIDigit(c) || c == '-'
	}
	if ok {
		return ""
	}
	return fmt.Sprintf("the prefix label %q must start with a letter and end with a letter or digit, with only letters, digits and '-' between", label)
}

func validMetaName(name string) bool {
	first, last := name[0], name[len(name)-1]
	if !isASCIIAlnum(first) || !isASCIIAlnum(last) {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !isASCIIAlnum(c) && c != '-' && c != '_' && c != '.' {
			return false
		}
	}
	return true
}

// reservedMetaPrefix reports whether a well-formed key's prefix is reserved
// for MCP under the given protocol's wording, and the label that makes it so.
func reservedMetaPrefix(key, protocol string) (string, bool) {
	prefix, _, hasPrefix := strings.Cut(key, "/")
	if !hasPrefix {
		return "", false
	}
	labels := strings.Split(prefix, ".")
	isMCP := func(l string) bool {
		return strings.EqualFold(l, "modelcontextprotocol") || strings.EqualFold(l, "mcp")
	}
	if lint.AtLeast(protocol, "2025-11-25") {
		// "Any prefix where the second label is modelcontextprotocol or mcp".
		if len(labels) >= 2 && isMCP(labels[1]) {
			return labels[1], true
		}
		return "", false
	}
	// 2025-06-18: "zero or more valid labels, followed by
	// modelcontextprotocol or mcp, followed by any valid label".
	for _, l := range labels[:len(labels)-1] {
		if isMCP(l) {
			return l, true
		}
	}
	return "", false
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isASCIIDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isASCIIAlnum(c byte) bool  { return isASCIILetter(c) || isASCIIDigit(c) }
