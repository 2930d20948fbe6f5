package schema

import (
	"errors"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpfit/mcplint/internal/english"
	"github.com/mcpfit/mcplint/pointer"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// ProblemKind says what part of a schema a compile problem concerns.
type ProblemKind int

const (
	// ProblemInvalid: the schema breaks its dialect's rules (a keyword with
	// a value its metaschema forbids, an anchor declared twice, …).
	ProblemInvalid ProblemKind = iota
	// ProblemReference: a $ref (or $dynamicRef) does not lead to a schema
	// inside the document.
	ProblemReference
	// ProblemDialect: $schema names a dialect mcplint does not know.
	ProblemDialect
)

// Problem is one located reason a schema does not compile.
type Problem struct {
	Kind ProblemKind
	// Pointer locates the offending keyword inside the schema (RFC 6901,
	// "" for the root). For ProblemReference it is often unknown ("").
	Pointer string
	Message string
}

var printer = message.NewPrinter(language.English)

// Problems explains an error from Compile as located problems, one per
// schema location that fails its metaschema. nil gives nil.
func Problems(err error) []Problem {
	if err == nil {
		return nil
	}
	var (
		dialect *UnknownDialectError
		sve     *jsonschema.SchemaValidationError
		dupA    *jsonschema.DuplicateAnchorError
		dupID   *jsonschema.DuplicateIDError
		pid     *jsonschema.ParseIDError
		pan     *jsonschema.ParseAnchorError
		re      *jsonschema.InvalidRegexError
		load    *jsonschema.LoadURLError
		nf      *jsonschema.JSONPointerNotFoundError
		anf     *jsonschema.AnchorNotFoundError
		ijp     *jsonschema.InvalidJsonPointerError
	)
	var number *NumberError
	switch {
	case errors.As(err, &number):
		return []Problem{{Pointer: number.Pointer, Message: number.Error()}}
	case errors.As(err, &dialect):
		return []Problem{{Kind: ProblemDialect, Pointer: "/$schema", Message: dialect.Error()}}
	case errors.As(err, &sve):
		if sve.URL != resourceURL+"#" {
			// The compiler validates the target of a $ref against the
			// metaschema when it compiles it: a reference to something that
			// is not a schema.
			return []Problem{{Kind: ProblemReference, Pointer: fragmentPointer(sve.URL), Message: "a $ref points at a value that is not a schema (" + fragmentPointer(sve.URL) + ")"}}
		}
		var ve *jsonschema.ValidationError
		if errors.As(sve.Err, &ve) {
			return leafProblems(ve)
		}
	case errors.As(err, &dupA):
		first, second := ordered(dupA.Ptr1, dupA.Ptr2)
		return []Problem{{Pointer: second, Message: "anchor \"" + dupA.Anchor + "\" is declared twice, at " + rootName(first) + " and " + rootName(second)}}
	case errors.As(err, &dupID):
		first, second := ordered(dupID.Ptr1, dupID.Ptr2)
		return []Problem{{Pointer: second, Message: "$id \"" + dupID.ID + "\" is declared twice, at " + rootName(first) + " and " + rootName(second)}}
	case errors.As(err, &pid):
		return []Problem{{Pointer: fragmentPointer(pid.URL), Message: "$id is not a valid URI reference"}}
	case errors.As(err, &pan):
		return []Problem{{Pointer: fragmentPointer(pan.URL), Message: "anchor is not a valid plain name"}}
	case errors.As(err, &re):
		return []Problem{{Pointer: fragmentPointer(re.URL), Message: "invalid regular expression " + strconv.Quote(re.Regex) + ": " + re.Err.Error()}}
	case errors.As(err, &load), errors.As(err, &nf), errors.As(err, &anf), errors.As(err, &ijp):
		return []Problem{{Kind: ProblemReference, Message: cleanURLs(err.Error())}}
	}
	return []Problem{{Message: cleanURLs(err.Error())}}
}

// leafProblems turns a metaschema validation error into one problem per
// failing schema location. The error is a tree whose inner nodes say only
// that a group failed ("allOf failed", "validation failed"); its leaves say
// what is wrong.
func leafProblems(root *jsonschema.ValidationError) []Problem {
	type leaf struct {
		msg    string
		isType bool
	}
	var order []string
	leaves := map[string][]leaf{}
	var visit func(e *jsonschema.ValidationError)
	visit = func(e *jsonschema.ValidationError) {
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				visit(c)
			}
			return
		}
		ptr := tokensPointer(e.InstanceLocation)
		if _, seen := leaves[ptr]; !seen {
			order = append(order, ptr)
		}
		_, isType := e.ErrorKind.(*kind.Type)
		l := leaf{msg: leafMessage(e.ErrorKind), isType: isType}
		for _, o := range leaves[ptr] {
			if o.msg == l.msg {
				return
			}
		}
		leaves[ptr] = append(leaves[ptr], l)
	}
	visit(root)
	// The validator's traversal follows map order; sort for stable output.
	slices.Sort(order)
	out := make([]Problem, 0, len(order))
	for _, ptr := range order {
		ls := leaves[ptr]
		// Where alternatives failed (the metaschema's "type" is a name or a
		// list of names), the branch that failed on the value's JSON type
		// explains least: keep the others.
		var msgs []string
		for _, l := range ls {
			if !l.isType || len(ls) == 1 {
				msgs = append(msgs, l.msg)
			}
		}
		if len(msgs) == 0 {
			msgs = append(msgs, ls[0].msg)
		}
		out = append(out, Problem{Pointer: ptr, Message: strings.Join(msgs, "; ")})
	}
	return out
}

// leafMessage words the common metaschema failures for a schema author: the
// value checked is a keyword's value, not an argument.
func leafMessage(k jsonschema.ErrorKind) string {
	switch k := k.(type) {
	case *kind.Type:
		want := make([]string, len(k.Want))
		for i, w := range k.Want {
			want[i] = withArticle(w)
		}
		return "must be " + strings.Join(want, " or ") + ", not " + withArticle(k.Got)
	case *kind.Minimum:
		return "must be at least " + k.Want.RatString() + ", not " + k.Got.RatString()
	case *kind.ExclusiveMinimum:
		return "must be greater than " + k.Want.RatString() + ", not " + k.Got.RatString()
	}
	return k.LocalizedString(printer)
}

func withArticle(jsonType string) string {
	if jsonType == "null" {
		return "null"
	}
	return english.A(jsonType)
}

func tokensPointer(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(pointer.Escape(t))
	}
	return b.String()
}

// fragmentPointer extracts the JSON Pointer fragment of a URL the compiler
// reports ("mcplint:///x.json#/properties/a" gives "/properties/a").
func fragmentPointer(u string) string {
	_, frag, ok := strings.Cut(u, "#")
	if !ok {
		return ""
	}
	if f, err := url.PathUnescape(frag); err == nil {
		frag = f
	}
	if !strings.HasPrefix(frag, "/") {
		return ""
	}
	return frag
}

// ordered sorts two locations the compiler reports in no fixed order, so
// the same schema always gives the same problem.
func ordered(a, b string) (string, string) {
	if b < a {
		return b, a
	}
	return a, b
}

func rootName(ptr string) string {
	if ptr == "" {
		return "the root"
	}
	return ptr
}

// cleanURLs removes the internal name of the document from a message.
func cleanURLs(s string) string {
	s = strings.ReplaceAll(s, `"`+resourceURL+`"`, "the schema")
	return strings.ReplaceAll(s, resourceURL, "")
}
