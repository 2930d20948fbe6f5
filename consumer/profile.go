package consumer

import (
	"fmt"
	"slices"
	"strings"
)

// A Profile is what one consumer takes of a tool definition, as data: the
// schema keywords it takes, their allowed values, its limits and its name
// alphabet, each line with the public source it comes from and what the
// consumer does with what the line leaves out (Action). Rules read the
// profiles through one walk (package rules), and so does the rewriting of
// package normalize, which convert and the fixes call: what convert writes
// for a consumer is what its profile takes.
//
// A profile whose consumer documents the keywords it takes is an allowlist
// (Allowlist): any keyword no Keywords line takes is reported, as the
// profile's Unlisted line says. A consumer that documents no such list (the
// MCP specification, which takes all of JSON Schema; the TypeScript SDK;
// the providers' non-strict modes) keeps a denylist: its lines are what it
// is known to refuse or alter, and Basis says so.
type Profile struct {
	Consumer ID
	// Allowlist is true when the consumer's own documentation lists what
	// it takes.
	Allowlist bool
	// Basis is the document the allowlist comes from, or why there is none.
	Basis string
	// Unlisted, in an allowlist, is what the consumer does with a keyword
	// that no Keywords line takes (Refuse lines name some of them with
	// their own error).
	Unlisted *Line
	Lines    []Line
}

// Kind says what a profile line constrains.
type Kind int

const (
	// Keywords lines list schema keywords the consumer takes or, with
	// Refuse, refuses (At says where).
	Keywords Kind = iota + 1
	// Values lines constrain a keyword's value (Match says how).
	Values
	// Requires lines demand a keyword on schemas of Type (at At), with the
	// value Values[0] when one is given, unless one of Unless is present.
	Requires
	// Name lines constrain the tool name: its characters (Chars, First)
	// and length (Max).
	Name
	// Limit lines bound a count or a length (Measure, Max).
	Limit
	// Check lines describe a constraint one rule checks as a whole (the
	// schema's validity, its dialect, its references); Text says which.
	Check
)

// Place is where in a schema a line applies.
type Place int

const (
	Anywhere Place = iota
	// Root is the schema's top level.
	Root
	// Nested is every schema below the root.
	Nested
	// Member is a property's schema or an array's element schema.
	Member
)

// Match says how a Values line reads its Values.
type Match int

const (
	// OneOf: the value is a string listed in Values (a list is refused).
	OneOf Match = iota
	// Each: the value is a listed string or a list of listed strings.
	Each
	// Kinds: the value is a list whose members have the JSON kinds
	// listed ("string", "number", ...).
	Kinds
	// Without: the value is a string that contains none of Values (the
	// regular-expression constructs a pattern may not use).
	Without
)

// Action is what a consumer does with what a line does not allow.
type Action int

const (
	// Refuses: the request fails, and with it every tool it carries.
	Refuses Action = iota
	// DropsTool: the tool is left out (or fails on every call); the
	// others work.
	DropsTool
	// MayRefuse: some versions or endpoints of the consumer refuse, others
	// accept.
	MayRefuse
	// Discourages: the document says it SHOULD NOT be done; no refusal is
	// documented.
	Discourages
	// DropsKeyword: the keyword is silently ignored: the constraint no
	// longer reaches the model.
	DropsKeyword
	// Rewrites: the value is rewritten before use.
	Rewrites
)

func (a Action) String() string {
	switch a {
	case Refuses:
		return "refuses"
	case DropsTool:
		return "drops the tool"
	case MayRefuse:
		return "may refuse"
	case Discourages:
		return "discourages (SHOULD)"
	case DropsKeyword:
		return "ignores the keyword"
	case Rewrites:
		return "rewrites"
	}
	return "?"
}

// Loses reports whether the action costs the tool (or the request): the
// model cannot use the tool as published.
func (a Action) Loses() bool { return a == Refuses || a == DropsTool }

// Line is one constraint of a profile.
type Line struct {
	// ID names the line within its profile; rules cite it
	// (Refusal.Line).
	ID   string
	Kind Kind
	// Text says in a few words what the line demands.
	Text string
	// Keywords are the schema keywords the line is about.
	Keywords []string
	// Refuse turns a Keywords line into a denial.
	Refuse bool
	// Type limits a Values or Requires line to schemas of this JSON type
	// ("" for any schema).
	Type string
	At   Place
	// Values are, for a Values line, what Match reads; for a Requires
	// line, the one value the keyword must have (as JSON), if any.
	Values []string
	Match  Match
	// NonEmpty has a Requires line demand a non-empty object or list,
	// NotFalse a value other than false (a false schema accepts nothing,
	// which some consumers read as missing), and Schema a schema (an
	// object or true), not a list.
	NonEmpty, NotFalse, Schema bool
	// Unless exempts, from a Requires line, a schema that has one of these
	// keywords; When, if given, limits it to schemas that have one.
	Unless, When []string
	// Chars and First are a Name line's alphabet (ranges such as "a-z"),
	// for every character and for the first.
	Chars, First string
	// Measure names what a Limit line bounds: "description" (characters
	// of the tool's description), "tools", "depth", "properties",
	// "enum-values", "string-chars", "long-enum".
	Measure string
	// Max bounds a Limit line, or a Name line's length in characters.
	Max int
	// Action is what the consumer does otherwise.
	Action Action
	// Error is the consumer's own message, where a public source quotes it.
	Error string
	// Source cites the document, SDK code or report the line comes from.
	Source string
}

// Profiles are the consumers' profiles, in the matrix's order.
var Profiles = []*Profile{
	mcpSpecProfile, tsSDKProfile, anthropicProfile, claudeCodeProfile, claudeAIProfile,
	openAIChatProfile, openAIResponsesProfile, openAIStrictProfile,
	geminiParametersProfile, geminiJSONSchemaProfile, vscodeProfile, cursorProfile,
}

// ProfileOf returns the profile of a consumer; nil when it has none.
func ProfileOf(id ID) *Profile {
	for _, p := range Profiles {
		if p.Consumer == id {
			return p
		}
	}
	return nil
}

// Line returns the profile's line with the ID; nil when there is none.
func (p *Profile) Line(id string) *Line {
	if p.Unlisted != nil && p.Unlisted.ID == id {
		return p.Unlisted
	}
	for i := range p.Lines {
		if p.Lines[i].ID == id {
			return &p.Lines[i]
		}
	}
	return nil
}

// Takes reports whether an allowlist takes keyword k (a denylist takes
// every keyword it does not refuse: see Refusing).
func (p *Profile) Takes(k string) bool {
	for i := range p.Lines {
		l := &p.Lines[i]
		if l.Kind == Keywords && !l.Refuse && slices.Contains(l.Keywords, k) {
			return true
		}
	}
	return !p.Allowlist
}

// Refusing returns the Refuse line that names keyword k at place at (Root
// or Nested); nil when none does.
func (p *Profile) Refusing(k string, at Place) *Line {
	for i := range p.Lines {
		l := &p.Lines[i]
		if l.Kind == Keywords && l.Refuse && l.applies(at) && slices.Contains(l.Keywords, k) {
			return l
		}
	}
	return nil
}

// Denied returns the line that refuses keyword k at place at: its Refuse
// line, or, in an allowlist that does not take it, Unlisted. Nil when the
// profile lets k stand there.
func (p *Profile) Denied(k string, at Place) *Line {
	if l := p.Refusing(k, at); l != nil {
		return l
	}
	if p.Allowlist && !p.Takes(k) {
		return p.Unlisted
	}
	return nil
}

// applies reports whether a line placed at l.At applies to a schema at
// place at (Root or Nested; Member counts as Nested).
func (l *Line) applies(at Place) bool {
	switch l.At {
	case Root:
		return at == Root
	case Nested, Member:
		return at != Root
	}
	return true
}

// Applies reports whether the line applies to the schema at the place,
// given whether that schema is a property's or an array's elements.
func (l *Line) Applies(at Place, member bool) bool {
	if l.At == Member {
		return member
	}
	return l.applies(at)
}

// ValuesOf returns the Values line of a profile about keyword k for a
// schema of type typ: the line naming typ first, then one for any type.
func (p *Profile) ValuesOf(k, typ string) *Line {
	var general *Line
	for i := range p.Lines {
		l := &p.Lines[i]
		if l.Kind != Values || !slices.Contains(l.Keywords, k) {
			continue
		}
		if l.Type == typ && typ != "" {
			return l
		}
		if l.Type == "" {
			general = l
		}
	}
	return general
}

// ValueAllowed reports whether the profile takes value v of keyword k on a
// schema of the given types (none: a schema without "type"), and when it
// does not, the line that refuses it. The lines of the schema's types
// apply, or, without a type, every line of k; a value any of them takes
// is taken, and so is any value when none applies.
func (p *Profile) ValueAllowed(k string, types []string, v any) (*Line, bool) {
	var lines []*Line
	for i := range p.Lines {
		l := &p.Lines[i]
		if l.Kind != Values || !slices.Contains(l.Keywords, k) {
			continue
		}
		if len(types) == 0 || l.Type == "" && !p.typedLine(k, types) || slices.Contains(types, l.Type) {
			lines = append(lines, l)
		}
	}
	for _, l := range lines {
		if l.Allows(v) {
			return nil, true
		}
	}
	if len(lines) == 0 {
		return nil, true
	}
	return lines[0], false
}

// typedLine reports whether a Values line of k names one of types.
func (p *Profile) typedLine(k string, types []string) bool {
	for i := range p.Lines {
		l := &p.Lines[i]
		if l.Kind == Values && l.Type != "" && slices.Contains(types, l.Type) && slices.Contains(l.Keywords, k) {
			return true
		}
	}
	return false
}

// LimitOf returns the Limit line of a measure; nil when the profile has
// none.
func (p *Profile) LimitOf(measure string) *Line {
	for i := range p.Lines {
		if l := &p.Lines[i]; l.Kind == Limit && l.Measure == measure {
			return l
		}
	}
	return nil
}

// NameLine returns the profile's Name line; nil when it has none.
func (p *Profile) NameLine() *Line {
	for i := range p.Lines {
		if l := &p.Lines[i]; l.Kind == Name {
			return l
		}
	}
	return nil
}

// Allows reports whether value v (decoded JSON) satisfies a Values line.
func (l *Line) Allows(v any) bool {
	switch l.Match {
	case OneOf:
		s, ok := v.(string)
		return ok && slices.Contains(l.Values, s)
	case Each:
		switch x := v.(type) {
		case string:
			return slices.Contains(l.Values, x)
		case []any:
			for _, e := range x {
				s, ok := e.(string)
				if !ok || !slices.Contains(l.Values, s) {
					return false
				}
			}
			return true
		}
		return false
	case Kinds:
		list, ok := v.([]any)
		if !ok {
			return false
		}
		for _, e := range list {
			if !slices.Contains(l.Values, kindOf(e)) {
				return false
			}
		}
		return true
	case Without:
		s, ok := v.(string)
		if !ok {
			return true
		}
		for _, c := range l.Values {
			if strings.Contains(s, c) {
				return false
			}
		}
		return true
	}
	return true
}

// kindOf names the JSON kind of a decoded value, as Kinds lines list them.
func kindOf(v any) string {
	switch x := v.(type) {
	case string:
		return "string"
	case bool:
		return "boolean"
	case nil:
		return "null"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	case fmt.Stringer: // json.Number
		if strings.ContainsAny(x.String(), ".eE") {
			return "number"
		}
		return "integer"
	case float64:
		if x == float64(int64(x)) {
			return "integer"
		}
		return "number"
	case int, int64:
		return "integer"
	}
	return "other"
}

// NameAllows reports whether a Name line's alphabet and length take name,
// counting characters as Unicode code points.
func (l *Line) NameAllows(name string) bool {
	n := 0
	for i, r := range name {
		if !inRanges(l.Chars, r) || i == 0 && l.First != "" && !inRanges(l.First, r) {
			return false
		}
		n++
	}
	return n >= 1 && (l.Max == 0 || n <= l.Max)
}

// NameChar reports whether a Name line's alphabet has r anywhere in a
// name; NameFirst whether a name may start with it.
func (l *Line) NameChar(r rune) bool  { return inRanges(l.Chars, r) }
func (l *Line) NameFirst(r rune) bool { return l.First == "" || inRanges(l.First, r) }

// inRanges reports whether r is in an alphabet written as characters and
// ranges ("A-Za-z0-9_.-": a "-" that ends the set stands for itself).
func inRanges(set string, r rune) bool {
	rs := []rune(set)
	for i := 0; i < len(rs); i++ {
		if i+2 < len(rs) && rs[i+1] == '-' {
			if r >= rs[i] && r <= rs[i+2] {
				return true
			}
			i += 2
			continue
		}
		if rs[i] == r {
			return true
		}
	}
	return false
}
