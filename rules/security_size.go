package rules

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcpfit/mcplint/internal/jsonscan"
	"github.com/mcpfit/mcplint/internal/par"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/pointer"
	"github.com/mcpfit/mcplint/schema"
)

// ContextBudget reports tools and lists too large for the model's context.
var ContextBudget = &lint.Rule{
	ID: "context-budget", Packs: securityPacks, Severity: lint.Warning, Harm: lint.Risks,
	Summary:     "tools and tool lists stay within a size budget for the model's context",
	Check:       checkContextBudget,
	CheckList:   checkContextBudgetList,
	Options:     map[string]any{"tool-bytes": 16384, "description-bytes": 8192, "list-bytes": 131072},
	CheckOption: nonNegative,
	Doc: `Every tool of every loaded server is sent to the model with each request.
An oversized description or schema crowds out the conversation, costs
tokens on every turn, and is where a poisoned description hides its payload
behind pages of padding (reviewers read the start, the model reads all).
Sizes are counted in bytes of compact JSON (about four bytes a token for
English text), against the options "tool-bytes" (a whole tool),
"description-bytes" (one description) and "list-bytes" (the whole list).
The defaults sit well above the reference servers (their largest tool,
sequentialthinking, is under 5 kB) and can be tightened for a client with a
small context.

Bad: a 30 kB description that repeats its instructions, or a list of 200
tools with full schemas.

Good: a description of a few sentences; related tools merged, rarely used
ones moved to another server.

Source: Anthropic, "Writing effective tools for agents"
(https://www.anthropic.com/engineering/writing-tools-for-agents, on token
efficiency of tool definitions); OpenAI, "What are tokens and how to count
them?" (https://help.openai.com/en/articles/4936856, about four characters a
token); ` + sourceInvariant + `.`,
}

// compactSize is the length of v written as compact JSON by
// encoding/json (HTML characters escaped), counted without writing it: the
// budget rules measure every tool of a list.
func compactSize(v any) int {
	switch x := v.(type) {
	case nil:
		return 4
	case bool:
		if x {
			return 4
		}
		return 5
	case string:
		return jsonStringSize(x)
	case json.Number:
		return len(x)
	case []any:
		n := 2 + max(len(x)-1, 0)
		for _, e := range x {
			n += compactSize(e)
		}
		return n
	case map[string]any:
		n := 2 + max(len(x)-1, 0)
		for k, e := range x {
			n += jsonStringSize(k) + 1 + compactSize(e)
		}
		return n
	}
	b, err := json.Marshal(v)
	if err != nil {
		return 0
	}
	return len(b)
}

// jsonStringSize is the length of s as encoding/json quotes it.
func jsonStringSize[S string | []byte](s S) int {
	n := 2
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\' || c == '\b' || c == '\f' || c == '\n' || c == '\r' || c == '\t':
				n += 2
			case c < 0x20 || c == '<' || c == '>' || c == '&':
				n += 6
			default:
				n++
			}
			i++
			continue
		}
		// At most one character's bytes, converted on the stack.
		r, size := utf8.DecodeRuneInString(string(s[i:min(i+utf8.UTFMax, len(s))]))
		if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
			n += 6
		} else {
			n += size
		}
		i += size
	}
	return n
}

// rawCompactSize is compactSize of the value of the valid JSON text src,
// counted from the text: outside strings every byte but white space is
// written as it is, and each string is measured decoded. Decoding every
// tool of a list to measure it was most of the budget's time.
func rawCompactSize(src []byte) int {
	n := 0
	var buf []byte
	for i := 0; i < len(src); {
		switch c := src[i]; c {
		case ' ', '\t', '\n', '\r':
			i++
		case '"':
			end, escaped := jsonscan.StringEnd(src, i)
			if end < 0 {
				return n // not reached in valid JSON
			}
			if !escaped {
				n += jsonStringSize(src[i+1 : end-1])
			} else if s, err := jsontext.AppendUnquote(buf[:0], src[i:end]); err == nil {
				buf = s
				n += jsonStringSize(s)
			}
			i = end
		default:
			n++
			i++
		}
	}
	return n
}

// rawTool is the text of the pass's tool when its value is that text
// decoded (manifest.Tool.Raw).
func rawTool(p *lint.Pass) ([]byte, bool) {
	if p.Tool == nil || p.Tool.M == nil {
		return nil, false
	}
	return p.Tool.Raw()
}

func checkContextBudget(p *lint.Pass) {
	if limit := p.Option("tool-bytes").(int); limit > 0 {
		var n int
		if raw, ok := rawTool(p); ok {
			n = rawCompactSize(raw) // the same, without walking the decoded tool
		} else {
			n = compactSize(p.Value)
		}
		if n > limit {
			p.Reportf("", "tool %q takes %d bytes (about %d tokens) of the model's context, over the budget of %d (option tool-bytes): shorten its description and schema", toolLabel(p), n, n/4, limit)
		}
	}
	if limit := p.Option("description-bytes").(int); limit > 0 {
		for _, t := range proseOf(p) {
			if len(t.s) > limit {
				p.Reportf(t.ptr(), "%s is %d bytes long, over the budget of %d (option description-bytes): say what the tool does in a few sentences", t.what, len(t.s), limit)
			}
		}
	}
}

func checkContextBudgetList(p *lint.ListPass) {
	limit := p.Option("list-bytes").(int)
	if limit <= 0 || len(p.Manifest.Tools) == 0 {
		return
	}
	// List rules run one after the other before the tools are linted:
	// decoding every tool here took most of that time, so it is done on
	// every CPU.
	tools := p.Manifest.Tools
	sizes := make([]int, len(tools))
	errs := make([]error, len(tools))
	par.ForEach(len(tools), func(i int) {
		if raw, ok := tools[i].Raw(); ok {
			sizes[i] = rawCompactSize(raw)
			return
		}
		var v any
		if v, errs[i] = tools[i].Value(); errs[i] == nil {
			sizes[i] = compactSize(v)
		}
	})
	if par.FirstError(errs) != nil {
		return
	}
	total := 0
	for _, n := range sizes {
		total += n
	}
	if total > limit {
		first := p.Manifest.Tools[0]
		p.Reportf(first, "", "the %d tools take %d bytes (about %d tokens) of the model's context with every request, over the budget of %d (option list-bytes): split the server or trim the tools", len(p.Manifest.Tools), total, total/4, limit)
	}
}

// SecretInSchema reports credentials in default values and examples.
var SecretInSchema = &lint.Rule{
	ID: "secret-in-schema", Packs: securityPacks, Severity: lint.Error, Harm: lint.Breaks,
	Summary: "default values and examples carry no credentials",
	Check:   checkSecretInSchema,
	Doc: `A "default", "examples" or "example" value is published to every client and
every model that lists the tools, and a model copies it into calls. One that
carries an API key, a token, a private key or a URL with a password leaks it
to all of them, and a model that copies it sends it on. Reported as an
error for strings in the format of a known credential (AWS, GitHub, GitLab,
Slack, OpenAI, Anthropic, Google, Stripe keys, private keys, JSON Web
Tokens, URLs with a password), as a warning for a non-placeholder default of
a property named like a secret (password, token, api_key, …).

Bad:

    {"properties": {"token": {"type": "string", "default": "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB"}}}

Good:

    {"properties": {"token": {"type": "string", "description": "A GitHub token; read from GITHUB_TOKEN when absent."}}}

Source: the token formats of GitHub secret scanning
(https://docs.github.com/en/code-security/secret-scanning/introduction/supported-secret-scanning-patterns)
and gitleaks' rules (https://github.com/gitleaks/gitleaks); OWASP Top 10 for
LLM Applications 2025, LLM02 "Sensitive Information Disclosure".`,
}

var secretPatterns = patterns(
	`\b(AKIA|ASIA)[0-9A-Z]{16}\b`, "an AWS access key ID",
	`\bgh[pousr]_[A-Za-z0-9]{36,}\b`, "a GitHub token",
	`\bgithub_pat_[A-Za-z0-9_]{22,}\b`, "a GitHub fine-grained token",
	`\bglpat-[A-Za-z0-9_-]{20,}\b`, "a GitLab token",
	`\bxox[abposr]-[A-Za-z0-9-]{10,}\b`, "a Slack token",
	`\bsk-ant-[A-Za-z0-9_-]{20,}`, "an Anthropic API key",
	`\bsk-(proj-)?[A-Za-z0-9_-]{20,}`, "an OpenAI API key",
	`\bAIza[0-9A-Za-z_-]{35}\b`, "a Google API key",
	`\b[rs]k_live_[0-9A-Za-z]{20,}\b`, "a Stripe live key",
	`-----BEGIN [A-Z ]*PRIVATE KEY-----`, "a private key",
	`\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`, "a JSON Web Token",
	`\b[a-z][a-z0-9+.-]*://[^/\s:@]+:[^/\s@]{3,}@`, "a URL with a password",
)

var secretName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(passw(or)?d|secret|token|api[-_]?key|access[-_]?key|private[-_]?key|credential|auth)`)
})

var placeholder = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^$|your|xxx|\*\*\*|<|\$\{|example|changeme|placeholder|dummy|redacted|none|null|^\.\.\.$|…`)
})

func checkSecretInSchema(p *lint.Pass) {
	p.Walk(func(n *schema.Node) bool {
		s := n.Value
		for _, k := range []string{"default", "examples", "example", "const"} {
			v, ok := s[k]
			if !ok {
				continue
			}
			eachString(v, n.Pointer()+"/"+k, func(at func() string, str string, _ bool) {
				f := fold(str)
				for _, pt := range secretPatterns() {
					if !pt.mayMatch(f) {
						continue
					}
					if loc := pt.re.FindStringIndex(str); loc != nil {
						p.Reportf(at(), "%q holds what looks like %s (%s…); every client and model that lists the tools can read it: remove it and revoke the credential", k, pt.what, str[loc[0]:min(loc[1], loc[0]+6)])
						return
					}
				}
			})
		}
		if props, ok := s["properties"].(map[string]any); ok {
			// A default already reported as a credential is not
			// reported again for its property's name.
			for _, name := range slices.Sorted(maps.Keys(props)) {
				ps, _ := props[name].(map[string]any)
				d, ok := ps["default"].(string)
				if !ok || !secretName().MatchString(name) || placeholder().MatchString(strings.TrimSpace(d)) || len(d) < 8 || knownSecret(d) {
					continue
				}
				p.Report(lint.Diagnostic{
					Severity:   lint.Warning,
					RelPointer: n.Pointer() + "/properties/" + pointer.Escape(name) + "/default",
					Message:    fmt.Sprintf("property %q looks like a secret and has a default value; a published default is readable by every client: remove it and read the secret from the server's configuration", name),
				})
			}
		}
		return true
	})
}

func knownSecret(s string) bool {
	for _, pt := range secretPatterns() {
		if pt.re.MatchString(s) {
			return true
		}
	}
	return false
}
