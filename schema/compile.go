package schema

import (
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// noLoader refuses every URL: a tool's schema must stand alone, and mcplint
// never fetches anything (the 2026-07-28 spec forbids clients to dereference
// network $refs).
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("mcplint does not load external schemas (%s)", url)
}

// resourceURL is where a tool's schema is registered while compiling, and
// the base URI of a schema without $id when references are resolved. Its
// name is one no reasonable relative reference resolves to by accident.
const (
	internalScheme = "mcplint"
	resourceURL    = internalScheme + ":///.tool-schema.json"
)

var drafts = map[string]*jsonschema.Draft{
	Draft4:    jsonschema.Draft4,
	Draft6:    jsonschema.Draft6,
	Draft7:    jsonschema.Draft7,
	Draft2019: jsonschema.Draft2019,
	Draft2020: jsonschema.Draft2020,
}

// UnknownDialectError is returned when a schema's $schema names a dialect
// mcplint does not know: it cannot be validated, and a client must refuse it
// as unsupported (spec 2025-11-25 and later, "JSON Schema Usage").
type UnknownDialectError struct {
	Declared string
}

func (e *UnknownDialectError) Error() string {
	return fmt.Sprintf("unknown JSON Schema dialect %q", e.Declared)
}

// Compile compiles a schema with github.com/santhosh-tekuri/jsonschema/v6,
// defaulting to 2020-12 as MCP does when $schema is absent. The schema is
// validated against its dialect's metaschema.
func Compile(doc any) (*jsonschema.Schema, error) {
	return CompileDialect(doc, Draft2020)
}

// CompileDialect is Compile with the dialect to assume when the root
// declares no $schema. A declared $schema that Dialect recognises selects
// its draft whatever its spelling (http or https, with or without "#"); one
// it does not recognise is an *UnknownDialectError. Nothing is fetched.
func CompileDialect(doc any, assumed string) (*jsonschema.Schema, error) {
	d, declared := Dialect(doc)
	if declared != "" {
		if d == UnknownDraft {
			return nil, &UnknownDialectError{Declared: declared}
		}
		assumed = d
		// The draft is passed to the compiler instead, so a spelling the
		// compiler would try to load as a custom metaschema still works.
		root := make(map[string]any, len(doc.(map[string]any)))
		for k, v := range doc.(map[string]any) {
			if k != "$schema" {
				root[k] = v
			}
		}
		doc = root
	}
	draft, ok := drafts[assumed]
	if !ok {
		return nil, fmt.Errorf("compile schema: unknown dialect %q", assumed)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(draft)
	c.UseLoader(noLoader{})
	c.UseRegexpEngine(ecmaTolerantRegexp)
	if err := c.AddResource(resourceURL, doc); err != nil {
		return nil, err
	}
	return compile(c, resourceURL, doc)
}

// ecmaTolerantRegexp compiles patterns with Go's RE2 engine but accepts the
// ECMA-262 constructs RE2 lacks (lookaround, backreferences, \uXXXX and
// other escapes, repeat counts over 1000): JSON Schema patterns are ECMA-262
// regular expressions, and such a pattern is valid even though mcplint
// cannot run it. An accepted-but-unchecked pattern matches every string.
// Plain syntax errors (an unclosed group, a dangling quantifier) are still
// errors, because they are errors in ECMA-262 too.
func ecmaTolerantRegexp(s string) (jsonschema.Regexp, error) {
	re, err := regexp.Compile(s)
	if err == nil {
		return re, nil
	}
	var se *syntax.Error
	if errors.As(err, &se) {
		switch se.Code {
		case syntax.ErrInvalidPerlOp, syntax.ErrInvalidEscape, syntax.ErrInvalidRepeatSize,
			syntax.ErrLarge, syntax.ErrNestingDepth:
			return uncheckedRegexp(s), nil
		}
	}
	return nil, err
}

type uncheckedRegexp string

func (r uncheckedRegexp) String() string          { return string(r) }
func (r uncheckedRegexp) MatchString(string) bool { return true }
