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
	in := make([]string, len(tools))
	for i, t := range tools {
		in[i] = t.Name
	}
	names, why := newRenamer(p).Names(in)
	var warns []Warning
	for i, t := range tools {
		if why[i] != "" {
			warns = append(warns, Warning{Tool: t.Name, Index: t.Index, Pointer: "/name",
				Message: fmt.Sprintf("renamed to %q: %s", names[i], why[i])})
		}
	}
	return names, warns
}

// Renamer gives tools names a client accepts, as rename does, over a
// conversation rather than one document: a listing may come in pages and
// be listed again, and a name given once stays the same. The n-th tool of
// a listing named x gets, in every listing, the name it got the first
// time; a tool never met before keeps its own name when the client
// accepts it and no other tool was given it, and is otherwise renamed with
// a suffix that no name given so far has. Names given are never given to
// another tool, so a call names one tool. A Renamer is not safe for
// concurrent use.
type Renamer struct {
	p     namePolicy
	given map[nameKey]givenName
	taken map[string]bool
	// seen counts the tools of the current listing by name; listing
	// numbers the listings (Restart).
	seen    map[string]int
	listing int
	// suffix is, for each base, the first suffix not yet found taken:
	// trying "_2" on for the thousandth tool of one name took time in the
	// square of the tools.
	suffix map[string]int
}

// nameKey is the n-th tool named name of a listing.
type nameKey struct {
	name string
	n    int
}

type givenName struct {
	name    string
	listing int // the last listing that used it
}

// maxRemembered bounds what a Renamer remembers: names given in the
// listings before the last are forgotten past it, so that a server
// that renames its tools at every listing cannot grow it without end.
const maxRemembered = 1 << 18

func newRenamer(p namePolicy) *Renamer {
	return &Renamer{p: p, given: map[nameKey]givenName{}, taken: map[string]bool{}, seen: map[string]int{}, suffix: map[string]int{}}
}

// Restart begins a new listing: its tools are counted from the first
// again, so each gets the name the same tool got before.
func (r *Renamer) Restart() {
	r.listing++
	clear(r.seen)
	if len(r.given) <= maxRemembered {
		return
	}
	clear(r.taken)
	clear(r.suffix)
	for k, g := range r.given {
		if g.listing < r.listing-1 {
			delete(r.given, k)
			continue
		}
		r.taken[g.name] = true
	}
}

// Names gives the tools of one page of the current listing, in order,
// the names the client takes; why[i] says why names[i] is not the tool's
// own name, and is "" when it is.
func (r *Renamer) Names(page []string) (names, why []string) {
	names = make([]string, len(page))
	why = make([]string, len(page))
	keys := make([]nameKey, len(page))
	for i, n := range page {
		keys[i] = nameKey{n, r.seen[n]}
		r.seen[n]++
	}
	give := func(i int, name string) {
		names[i] = name
		r.taken[name] = true
		r.given[keys[i]] = givenName{name, r.listing}
	}
	// Names given before come first, then the names the client accepts as
	// they are, then the renames, so that a rename never takes a name a
	// tool has of its own.
	for i, k := range keys {
		if g, ok := r.given[k]; ok {
			give(i, g.name)
		}
	}
	for i, n := range page {
		if names[i] == "" && r.p.valid(n) && !r.taken[n] {
			give(i, n)
		}
	}
	for i, n := range page {
		if names[i] != "" {
			continue
		}
		base := r.p.sanitize(n)
		name := base
		k := max(2, r.suffix[base])
		for r.taken[name] {
			suffix := "_" + strconv.Itoa(k)
			cut := min(len(base), r.p.max-len(suffix))
			name = base[:cut] + suffix
			k++
		}
		r.suffix[base] = k
		give(i, name)
	}
	for i, n := range page {
		switch {
		case names[i] == n:
		case !r.p.valid(n):
			why[i] = r.p.rule
		default:
			why[i] = "another tool has that name"
		}
	}
	return names, why
}
