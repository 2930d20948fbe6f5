package convert

import (
	"fmt"
	"strconv"
	"strings"
)

// namePolicy is what a target accepts as a tool name.
type namePolicy struct {
	// rule is quoted in warnings.
	rule string
	max  int
	// allowed reports whether r may appear in a name; firstOK whether it
	// may start one (nil: any allowed character).
	allowed, firstOK func(r rune) bool
}

func alnum(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
}

// Names the targets accept:
//   - OpenAI: "Must be a-z, A-Z, 0-9, or contain underscores and dashes,
//     with a maximum length of 64" (API reference, FunctionDefinition.name:
//     https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools;
//     the API's 400 quotes ^[a-zA-Z0-9_-]{1,64}$).
//   - Anthropic: the Messages API answers `tools.16.custom.name: String
//     should match pattern '^[a-zA-Z0-9_-]{1,128}$'`
//     (modelcontextprotocol/modelcontextprotocol#1345,
//     jedisct1/openapi-mcp#9). Older reports quote {1,64}, and so does
//     Claude Desktop's own check (malloydata/publisher#543); names of up to
//     64 characters pass both.
//   - Gemini: "Must start with a letter or an underscore. Must be a-z, A-Z,
//     0-9, or contain underscores, dots, colons and dashes, with a maximum
//     length of 64" (google-genai FunctionDeclaration.name,
//     https://googleapis.github.io/java-genai/javadoc/google-genai/com.google.genai.types/-function-declaration/-builder/name.html).
var (
	openaiNames = namePolicy{
		rule: "OpenAI tool names must match ^[a-zA-Z0-9_-]{1,64}$", max: 64,
		allowed: func(r rune) bool { return alnum(r) || r == '_' || r == '-' },
	}
	anthropicNames = namePolicy{
		rule: "Anthropic tool names must match ^[a-zA-Z0-9_-]{1,128}$", max: 128,
		allowed: func(r rune) bool { return alnum(r) || r == '_' || r == '-' },
	}
	geminiNames = namePolicy{
		rule: "Gemini function names must start with a letter or _, use only a-z, A-Z, 0-9, _ . : -, and have at most 64 characters", max: 64,
		allowed: func(r rune) bool { return alnum(r) || strings.ContainsRune("_.:-", r) },
		firstOK: func(r rune) bool { return alnum(r) && (r < '0' || r > '9') || r == '_' },
	}
)

func (p namePolicy) valid(name string) bool {
	if name == "" || len(name) > p.max {
		return false
	}
	for i, r := range name {
		if !p.allowed(r) || i == 0 && p.firstOK != nil && !p.firstOK(r) {
			return false
		}
	}
	return true
}

// sanitize maps name onto the policy: every character it does not allow
// becomes "_", a name that may not start as it does gets a leading "_",
// and the result is cut to the maximum length.
func (p namePolicy) sanitize(name string) string {
	var b strings.Builder
	for _, r := range name {
		if p.allowed(r) {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	s := b.String()
	if s == "" {
		s = "tool"
	}
	if p.firstOK != nil && !p.firstOK(rune(s[0])) {
		s = "_" + s
	}
	if len(s) > p.max {
		s = s[:p.max]
	}
	return s
}

// rename gives every tool a name the policy accepts, unique among the
// tools: valid names are kept (the first of duplicates keeps its name),
// others are sanitized, and a clash is settled with a suffix "_2", "_3", ….
// Each rename is a warning at /name.
func rename(tools []Tool, p namePolicy) ([]string, []Warning) {
	names := make([]string, len(tools))
	taken := map[string]bool{}
	for i, t := range tools {
		if p.valid(t.Name) && !taken[t.Name] {
			names[i] = t.Name
			taken[t.Name] = true
		}
	}
	var warns []Warning
	for i, t := range tools {
		if names[i] != "" {
			continue
		}
		base := p.sanitize(t.Name)
		name := base
		for n := 2; taken[name]; n++ {
			suffix := "_" + strconv.Itoa(n)
			cut := min(len(base), p.max-len(suffix))
			name = base[:cut] + suffix
		}
		taken[name] = true
		names[i] = name
		why := p.rule
		if p.valid(t.Name) {
			why = "another tool has that name"
		}
		warns = append(warns, Warning{Tool: t.Name, Index: t.Index, Pointer: "/name",
			Message: fmt.Sprintf("renamed to %q: %s", name, why)})
	}
	return names, warns
}
