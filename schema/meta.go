package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"math"
	"slices"
	"strconv"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Compiling a schema validates it against its dialect's metaschema and then
// builds the whole compiled tree, which a linter throws away; both cost far
// more than the decoding. A Checker validates against each metaschema
// compiled once per process instead, and validates each distinct schema
// node only once per Checker: generated manifests repeat the same few
// shapes of property across thousands of tools.

// metaschemas compiles each dialect's metaschema once per process, with
// every format asserted (as the compiler validates schemas) and the
// ECMA-tolerant regular expressions, so "pattern" is judged as Compile
// judges it.
var metaschemas = func() map[string]func() (*jsonschema.Schema, error) {
	m := map[string]func() (*jsonschema.Schema, error){}
	for name, url := range draftURLs {
		m[name] = sync.OnceValues(func() (*jsonschema.Schema, error) {
			c := jsonschema.NewCompiler()
			c.AssertFormat()
			c.UseLoader(noLoader{})
			c.UseRegexpEngine(ecmaTolerantRegexp)
			return c.Compile(url)
		})
	}
	return m
}()

// draftURLs are the dialects whose metaschemas the reasoning below holds
// for. Draft-04 and draft-06 schemas are compiled: their metaschemas do not
// check that patternProperties' names are regular expressions, and
// draft-04 ones do not allow true as a schema.
var draftURLs = map[string]string{
	Draft7:    "http://json-schema.org/draft-07/schema",
	Draft2019: "https://json-schema.org/draft/2019-09/schema",
	Draft2020: "https://json-schema.org/draft/2020-12/schema",
}

// Checker finds what makes schemas invalid under their dialect, as Compile
// reports it, sharing work across the schemas it checks. It is safe for
// concurrent use; keep one for a run (its memory grows with the number of
// distinct schema nodes it has seen).
type Checker struct {
	mu sync.RWMutex
	// valid maps the hash of a dialect and shallow node (see appendNodeKey)
	// to whether the node is valid: thousands of distinct nodes would
	// otherwise keep their keys, several times the size of the schemas.
	// Two independent 64-bit hashes make a collision, which would lend one
	// node another's verdict, as good as impossible.
	valid map[nodeHash]bool
}

type nodeHash [2]uint64

var seeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

// NewChecker returns an empty Checker.
func NewChecker() *Checker {
	return &Checker{valid: map[nodeHash]bool{}}
}

// Problems returns the problems of Problems(CompileDialect(doc, assumed))
// that are not ProblemReference: a schema whose references do not resolve
// is still checked against its metaschema, and reference problems are not
// looked for (they are ref-resolvable's; see ResolveRef).
//
// Most schemas are only validated against the metaschema: without "$id",
// anchors or an embedded "$schema", compiling a draft-07, 2019-09 or
// 2020-12 schema that its metaschema accepts fails only on references
// (every regular expression and URI the compiler parses has already passed
// the metaschema's "regex" and "uri-reference" formats, with the same
// engine). Other schemas are compiled.
func (c *Checker) Problems(doc any, assumed string) []Problem {
	d, declared := Dialect(doc)
	if declared != "" {
		if d == UnknownDraft {
			return Problems(&UnknownDialectError{Declared: declared})
		}
		assumed = d
	}
	root, isObject := doc.(map[string]any)
	meta, err := metaschema(assumed)
	// An empty "$schema" declares nothing to Dialect, but the compiler
	// reads it its own way: it decides.
	if !isObject || err != nil || hasResources(root, 0) || root["$schema"] == "" {
		_, err := CompileDialect(doc, assumed)
		return withoutReferences(Problems(err))
	}
	if declared != "" {
		// CompileDialect passes the draft to the compiler instead.
		stripped := make(map[string]any, len(root))
		for k, v := range root {
			if k != "$schema" {
				stripped[k] = v
			}
		}
		root = stripped
	}
	buf := make([]byte, 0, 256)
	if c.nodesValid(assumed, meta, root, 0, &buf) {
		return nil
	}
	// Some node failed alone: validate the schema, which words the problems
	// as the compiler does, with its valid parts made true (see prune).
	pruned, _ := c.prune(assumed, meta, root, 0, &buf)
	if err := Validate(meta, pruned); err != nil {
		var ne *NumberError
		if errors.As(err, &ne) {
			return Problems(ne)
		}
		return Problems(&jsonschema.SchemaValidationError{URL: resourceURL + "#", Err: err})
	}
	return nil
}

// Warm compiles the metaschema of dialect d, if it is one a Checker
// validates against, unless that is done or under way. A process that will
// check schemas calls it on a goroutine of its own at start-up: compiling
// the 2020-12 metaschema takes a millisecond or two, as long as linting
// fifty tools, and another core can do it while the input is read.
func Warm(d string) {
	if _, ok := metaschemas[d]; ok {
		metaschema(d)
	}
}

func metaschema(d string) (*jsonschema.Schema, error) {
	f, ok := metaschemas[d]
	if !ok {
		return nil, fmt.Errorf("unknown dialect %q", d)
	}
	return f()
}

func withoutReferences(probs []Problem) []Problem {
	return slices.DeleteFunc(probs, func(p Problem) bool { return p.Kind == ProblemReference })
}

// hasResources reports whether a value declares what makes the compiler
// see more than one resource or any anchor: "$id", "$anchor",
// "$dynamicAnchor", or a "$schema" below the root. Every member at every
// depth counts, schema or not, which errs on the side of compiling.
func hasResources(v any, depth int) bool { return declares(v, "$id", depth) }

// declares is hasResources with the member that declares an identifier
// ("id" in draft-04), for the reference resolver too.
func declares(v any, idKey string, depth int) bool {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			switch k {
			case idKey, "$anchor", "$dynamicAnchor":
				return true
			case "$schema":
				if depth > 0 {
					return true
				}
			}
			if composite(e) && declares(e, idKey, depth+1) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if composite(e) && declares(e, idKey, depth+1) {
				return true
			}
		}
	}
	return false
}

// composite reports whether v is an object or an array: the walks over
// every value of a schema call themselves only for those, not for the
// strings and numbers that most members are.
func composite(v any) bool {
	switch v.(type) {
	case map[string]any, []any:
		return true
	}
	return false
}

// nodesValid reports whether s and every subschema below it are valid
// alone: each node is validated with its subschemas replaced by true (see
// shallowNode). The metaschemas of draft-07, 2019-09 and 2020-12 apply the whole
// metaschema to each subschema and otherwise constrain a subschema's
// position only in ways true meets too (a schema or an array of them), so
// when every node is valid alone the schema is valid. The converse need not
// hold: a false answer is checked on the whole schema.
func (c *Checker) nodesValid(dialect string, meta *jsonschema.Schema, s map[string]any, depth int, buf *[]byte) bool {
	if depth > MaxDepth || !c.nodeValid(dialect, meta, s, buf) {
		return false
	}
	valid := true
	eachSubschema(s, func(child map[string]any) bool {
		valid = c.nodesValid(dialect, meta, child, depth+1, buf)
		return valid
	})
	return valid
}

// nodeValid reports whether the node s is valid alone (shallowNode), from
// the Checker's verdicts when it has one for a node like it.
func (c *Checker) nodeValid(dialect string, meta *jsonschema.Schema, s map[string]any, buf *[]byte) bool {
	key := append(append((*buf)[:0], dialect...), 0)
	key = appendNodeKey(key, dialect, s)
	*buf = key
	c.mu.RLock()
	h := nodeHash{maphash.Bytes(seeds[0], key), maphash.Bytes(seeds[1], key)}
	ok, seen := c.valid[h]
	c.mu.RUnlock()
	if !seen {
		ok = Validate(meta, shallowNode(dialect, s)) == nil
		c.mu.Lock()
		c.valid[h] = ok
		c.mu.Unlock()
	}
	return ok
}

// prune returns s with each subschema that is valid down to its leaves
// replaced by true, or left out where member names are free (as in
// shallowNode), and whether s itself is valid (the result is then s). The
// metaschema words the problems of the result as those of s: a position
// that holds a subschema takes true as it takes any valid schema (the
// argument of nodesValid), and a valid part adds no problem. Validating
// the result costs the invalid nodes and the way to them rather than the
// whole schema: the whole schema of a few broken tools took a twentieth
// of a lint of ten thousand. Nothing of s is modified; what changes is
// copied.
func (c *Checker) prune(dialect string, meta *jsonschema.Schema, s map[string]any, depth int, buf *[]byte) (map[string]any, bool) {
	if depth > MaxDepth {
		return s, false
	}
	valid := c.nodeValid(dialect, meta, s, buf)
	var out map[string]any // s with copied containers, once a subschema changes
	EachChild(s, func(child any, kw, name string, idx int) {
		m, ok := child.(map[string]any)
		if !ok {
			return
		}
		p, pv := c.prune(dialect, meta, m, depth+1, buf)
		valid = valid && pv
		if !pv && Identity(p) == Identity(m) {
			return
		}
		if out == nil {
			out = CloneShell(s)
		}
		var r any = p
		if pv {
			r = true
		}
		switch {
		case idx >= 0:
			out[kw].([]any)[idx] = r
		case singleSet[kw]:
			out[kw] = r
		case pv && freeNames[kw]:
			// Names no metaschema constrains: the member can go, as in
			// shallowNode.
			delete(out[kw].(map[string]any), name)
		default:
			out[kw].(map[string]any)[name] = r
		}
	})
	if valid || out == nil {
		return s, valid
	}
	return out, false
}

// Which members of a node hold subschemas, as Children sees them.
var (
	singleSet = setOf(singleKeywords)
	mapSet    = setOf(mapKeywords)
	listSet   = setOf(listKeywords)
)

func setOf(list []string) map[string]bool {
	m := make(map[string]bool, len(list))
	for _, k := range list {
		m[k] = true
	}
	return m
}

// eachSubschema calls fn for each direct subschema of s that is an object,
// until fn returns false.
func eachSubschema(s map[string]any, fn func(map[string]any) bool) {
	for k, v := range s {
		switch x := v.(type) {
		case map[string]any:
			if singleSet[k] {
				if !fn(x) {
					return
				}
			} else if mapSet[k] {
				for _, e := range x {
					if m, ok := e.(map[string]any); ok && !fn(m) {
						return
					}
				}
			}
		case []any:
			if listSet[k] {
				for _, e := range x {
					if m, ok := e.(map[string]any); ok && !fn(m) {
						return
					}
				}
			}
		}
	}
}

// shallowNode is the part of s that its metaschema judges apart from its
// subschemas, with the values that every metaschema from draft-06 on
// constrains by JSON type only replaced by one value of that type, so that
// nodes differing only there share one validation (see standIn):
//
//   - a subschema that is an object is left out: under "properties",
//     "$defs", "definitions", "dependentSchemas" and "dependencies" its
//     member is dropped (their names are free), a list keyword keeps one
//     true in place of its object members ("allOf" and the like must not
//     be empty), any other keyword holds true;
//   - members that are not objects are kept, and checked.
//
// appendNodeKey encodes the same value without building it.
func shallowNode(dialect string, s map[string]any) map[string]any {
	out := make(map[string]any, len(s))
	for k, v := range s {
		out[k] = shallowMember(dialect, k, v)
	}
	return out
}

// freeNames are the map keywords whose member names no metaschema
// constrains ("patternProperties" names must be regular expressions).
var freeNames = setOf([]string{"properties", "$defs", "definitions", "dependentSchemas", "dependencies"})

func shallowMember(dialect, k string, v any) any {
	if r, ok := standIn(dialect, k, v); ok {
		return r
	}
	switch x := v.(type) {
	case map[string]any:
		if singleSet[k] {
			return true
		}
		if mapSet[k] {
			m := make(map[string]any, len(x))
			for name, e := range x {
				if _, isObj := e.(map[string]any); isObj {
					if freeNames[k] {
						continue
					}
					e = true
				}
				m[name] = e
			}
			return m
		}
	case []any:
		if listSet[k] {
			l := make([]any, 0, len(x))
			objects := false
			for _, e := range x {
				if _, isObj := e.(map[string]any); isObj {
					objects = true
					continue
				}
				l = append(l, e)
			}
			if objects {
				l = append(l, true)
			}
			return l
		}
	}
	return v
}

// standIn gives the stand-in for the value of a keyword that the
// metaschemas of draft-06, draft-07, 2019-09 and 2020-12 constrain by JSON
// type only: "description", "title", "$comment" and "format" must be
// strings, "examples" and (from 2019-09) "enum" arrays, "minimum", "maximum",
// "exclusiveMinimum" and "exclusiveMaximum" numbers, and "default" and
// "const" may be anything (JSON Schema Validation 2020-12, sections 6.1.2,
// 6.1.3, 6.2, 7.2 and 9; draft-07 sections 6.1.2, 6.1.3, 6.2, 7.2 and 10).
// "required" must be an array of distinct strings: one that is stands for
// them all.
func standIn(dialect, k string, v any) (any, bool) {
	switch k {
	case "description", "title", "$comment", "format":
		if _, ok := v.(string); ok {
			return "", true
		}
	case "examples":
		if _, ok := v.([]any); ok {
			return []any{}, true
		}
	case "enum":
		// draft-07's "enum" must also be non-empty and its items distinct.
		if _, ok := v.([]any); ok && dialect != Draft7 {
			return []any{}, true
		}
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
		if _, ok := v.(json.Number); ok {
			return json.Number("0"), true
		}
	case "default", "const":
		return nil, true
	case "required":
		if distinctStrings(v) {
			return []any{}, true
		}
	}
	return nil, false
}

// distinctStrings reports whether v is an array of strings, none twice.
// A short one is compared pair by pair; a long one through a set: a
// "required" of 100,000 names was ten billion comparisons.
func distinctStrings(v any) bool {
	l, ok := v.([]any)
	if !ok {
		return false
	}
	if len(l) > 16 {
		seen := make(map[string]struct{}, len(l))
		for _, e := range l {
			s, ok := e.(string)
			if !ok {
				return false
			}
			if _, dup := seen[s]; dup {
				return false
			}
			seen[s] = struct{}{}
		}
		return true
	}
	for i, e := range l {
		s, ok := e.(string)
		if !ok {
			return false
		}
		for _, f := range l[:i] {
			if f == s {
				return false
			}
		}
	}
	return true
}

// appendNodeKey appends an encoding of shallowNode(s) that tells apart any
// two different values: members in sorted order, strings with their length,
// every value tagged with its kind.
func appendNodeKey(b []byte, dialect string, s map[string]any) []byte {
	var small [16]string
	keys := small[:0]
	for k := range s {
		keys = append(keys, k)
	}
	return appendObjectKey(b, keys, func(b []byte, k string) []byte {
		return appendMemberKey(b, dialect, k, s[k])
	})
}

// appendObjectKey appends an object of the members named by keys, in sorted
// order, each value encoded by value: the one object encoding that node keys,
// member keys and value keys share.
func appendObjectKey(b []byte, keys []string, value func(b []byte, k string) []byte) []byte {
	slices.Sort(keys)
	b = append(b, '{')
	for _, k := range keys {
		b = appendKeyString(b, k)
		b = append(b, ':')
		b = value(b, k)
		b = append(b, ',')
	}
	return append(b, '}')
}

func appendMemberKey(b []byte, dialect, k string, v any) []byte {
	if r, ok := standIn(dialect, k, v); ok {
		return appendValueKey(b, r)
	}
	switch x := v.(type) {
	case map[string]any:
		if singleSet[k] {
			return appendValueKey(b, true)
		}
		if mapSet[k] {
			var small [16]string
			names := small[:0]
			for name, e := range x {
				if _, isObj := e.(map[string]any); !isObj || !freeNames[k] {
					names = append(names, name)
				}
			}
			return appendObjectKey(b, names, func(b []byte, name string) []byte {
				e := x[name]
				if _, isObj := e.(map[string]any); isObj {
					e = true
				}
				return appendValueKey(b, e)
			})
		}
	case []any:
		if listSet[k] {
			b = append(b, '[')
			objects := false
			for _, e := range x {
				if _, isObj := e.(map[string]any); isObj {
					objects = true
					continue
				}
				b = appendValueKey(b, e)
				b = append(b, ',')
			}
			if objects {
				b = appendValueKey(b, true)
				b = append(b, ',')
			}
			return append(b, ']')
		}
	}
	return appendValueKey(b, v)
}

// appendKeyString appends s, its length first: a key is never read back,
// only compared, and a length tells strings apart as well as quoting them,
// at a fraction of the cost.
func appendKeyString(b []byte, s string) []byte {
	b = strconv.AppendInt(b, int64(len(s)), 10)
	b = append(b, '"')
	return append(b, s...)
}

// appendValueKey encodes a decoded JSON value verbatim.
func appendValueKey(b []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(b, 'z')
	case bool:
		if x {
			return append(b, 't')
		}
		return append(b, 'f')
	case string:
		return appendKeyString(append(b, 's'), x)
	case json.Number:
		return appendKeyString(append(b, 'n'), string(x))
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Appendf(append(b, 'x'), "%v", x)
		}
		return appendKeyString(append(b, 'd'), strconv.FormatFloat(x, 'g', -1, 64))
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		return appendObjectKey(b, keys, func(b []byte, k string) []byte {
			return appendValueKey(b, x[k])
		})
	case []any:
		b = append(b, '[')
		for _, e := range x {
			b = appendValueKey(b, e)
			b = append(b, ',')
		}
		return append(b, ']')
	}
	// Decoded JSON holds nothing else; any other Go value is told apart by
	// its type and printed form.
	return fmt.Appendf(append(b, 'x'), "%T:%v", v, v)
}
