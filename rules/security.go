package rules

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/pointer"
	"github.com/mcpfit/mcplint/schema"
)

// SecurityPack is the pack of the rules that catch tools attacking the
// model or the user that reads them. It is off for `mcplint lint` (select
// it with --extend-select security) and meant to be on for `mcplint check`,
// which looks at servers one has not written.
const SecurityPack = "security"

var securityPacks = []string{SecurityPack}

var securityRules = []*lint.Rule{
	DescriptionInjection, DescriptionSensitiveFile, DescriptionExfiltration, DescriptionToolRedirection,
	InvisibleCharacters, ToolNameHomoglyph, ToolNameShadowing, ContextBudget, SecretInSchema,
}

// text is a string of a tool that the model reads as prose.
type text struct {
	// node and at locate it: at is below node when there is one (the
	// subschema holding the text), relative to the tool otherwise.
	node *schema.Node
	at   string
	what string
	s    string
	// folded is s case-folded (see folded), once for the several rules
	// that prefilter it.
	folded foldedText
}

// ptr is where the text is, spelled when a finding needs it.
func (t text) ptr() string {
	if t.node == nil {
		return t.at
	}
	return t.node.Pointer() + t.at
}

// enumDescriptionKeys hold per-value descriptions of an enum, as VS Code's
// JSON schemas and several SDKs write them.
var enumDescriptionKeys = []string{"enumDescriptions", "markdownEnumDescriptions", "x-enumDescriptions", "x-enum-descriptions", "enumNames"}

// proseOf collects the texts of a tool that address the model: the tool's
// description and title, and the descriptions and titles of every subschema
// of its input and output schemas, enum value descriptions included. The
// rules of the family share one collection per tool.
func proseOf(p *lint.Pass) []text {
	return p.Memo("security/prose", func() any { return collectProse(p) }).([]text)
}

func collectProse(p *lint.Pass) []text {
	var out []text
	v := p.Value
	for _, k := range []string{"description", "title"} {
		if s, ok := v[k].(string); ok {
			out = append(out, text{at: "/" + k, what: "the tool's " + k, s: s})
		}
	}
	if ann, ok := v["annotations"].(map[string]any); ok {
		if s, ok := ann["title"].(string); ok {
			out = append(out, text{at: "/annotations/title", what: "the tool's title", s: s})
		}
	}
	for _, root := range lint.SchemaMembers {
		// Worded once per member, not per text: a tool has dozens.
		descIn, titleIn := "a description in "+root, "a title in "+root
		p.Schema(root).Walk(func(n *schema.Node) bool {
			s := n.Value
			if str, ok := s["description"].(string); ok {
				out = append(out, text{node: n, at: "/description", what: descIn, s: str})
			}
			if str, ok := s["title"].(string); ok {
				out = append(out, text{node: n, at: "/title", what: titleIn, s: str})
			}
			for _, k := range enumDescriptionKeys {
				list, _ := s[k].([]any)
				for i, e := range list {
					if str, ok := e.(string); ok {
						out = append(out, text{node: n, at: "/" + k + "/" + strconv.Itoa(i), what: "an enum value description", s: str})
					}
				}
			}
			return true
		})
	}
	for i := range out {
		out[i].folded = fold(out[i].s)
	}
	return out
}

// eachString calls fn for each string of v, member names included (a
// name's pointer is its member's), names in sorted order. at returns the string's pointer, below ptr, and is valid
// only during the call: most strings raise nothing, and building the
// pointer of every string was a third of the time of the rules that read
// them all.
func eachString(v any, ptr string, fn func(at func() string, s string, key bool)) {
	w := &stringWalk{base: ptr, fn: fn}
	w.at = w.pointer
	w.walk(v)
}

// stringWalk is one eachString: the path to the current string, as member
// names (index -1) or array indexes.
type stringWalk struct {
	base string
	path []pathStep
	keys []string // scratch for sorting names, shared by the levels
	fn   func(at func() string, s string, key bool)
	at   func() string
}

type pathStep struct {
	name  string
	index int
}

func (w *stringWalk) pointer() string {
	b := []byte(w.base)
	for _, st := range w.path {
		b = append(b, '/')
		if st.index >= 0 {
			b = strconv.AppendInt(b, int64(st.index), 10)
		} else {
			b = append(b, pointer.Escape(st.name)...)
		}
	}
	return string(b)
}

func (w *stringWalk) walk(v any) {
	switch t := v.(type) {
	case string:
		w.fn(w.at, t, false)
	case map[string]any:
		start := len(w.keys)
		for k := range t {
			w.keys = append(w.keys, k)
		}
		names := w.keys[start:]
		slices.Sort(names)
		for i := range names {
			k := w.keys[start+i] // w.keys may have moved
			w.path = append(w.path, pathStep{name: k, index: -1})
			w.fn(w.at, k, true)
			w.walk(t[k])
			w.path = w.path[:len(w.path)-1]
		}
		w.keys = w.keys[:start]
	case []any:
		for i, e := range t {
			w.path = append(w.path, pathStep{index: i})
			w.walk(e)
			w.path = w.path[:len(w.path)-1]
		}
	}
}

// excerpt quotes the part of s around [i, j), short enough for a message.
func excerpt(s string, i, j int) string {
	const around = 30
	start, end := max(0, i-around), min(len(s), j+around)
	for start > 0 && !utf8RuneStart(s[start]) {
		start--
	}
	for end < len(s) && !utf8RuneStart(s[end]) {
		end++
	}
	q := s[start:end]
	if start > 0 {
		q = "…" + q
	}
	if end < len(s) {
		q += "…"
	}
	return fmt.Sprintf("%q", q)
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }

// nonNegative checks whole-number options (New has made them ints): a
// bound below zero means nothing, and zero turns the check off.
func nonNegative(name string, v any) error {
	if n, ok := v.(int); ok && n < 0 {
		return fmt.Errorf("%d is below zero; give a bound, or 0 to turn the check off", n)
	}
	return nil
}
