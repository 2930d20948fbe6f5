// Package benchgen generates large, deterministic tool manifests for
// benchmarks and load tests: varied, realistic tool definitions (nested
// objects, arrays, enums, bounded integers, $defs and $ref, descriptions of
// the length servers write), with a share of the defects real servers ship
// so that rules fire and fixes have work to do.
//
// The same (n, seed) always gives the same bytes.
package benchgen

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
)

// Options tune a manifest.
type Options struct {
	// Tools is the number of tools.
	Tools int
	// Seed picks the manifest; the same seed gives the same bytes.
	Seed uint64
	// Compact writes the manifest on one line instead of indenting it by
	// two spaces.
	Compact bool
	// Broken is the share of tools (0 to 1) given a defect. The default
	// (0) means 0.15; a negative value means none.
	Broken float64
}

// Manifest returns a tools/list result of n tools, pretty-printed, from seed
// 1: 10,000 tools make about 15 MB.
func Manifest(n int) []byte {
	return Generate(Options{Tools: n, Seed: 1})
}

// Generate returns a tools/list result as opts describe.
func Generate(opts Options) []byte {
	g := &gen{r: rand.New(rand.NewPCG(opts.Seed, 0x6d63706c696e74)), broken: opts.Broken}
	if g.broken == 0 {
		g.broken = 0.15
	}
	tools := make([]any, opts.Tools)
	for i := range tools {
		tools[i] = g.tool(i)
	}
	doc := obj{{"tools", tools}}
	if opts.Tools > 0 {
		doc = append(doc, kv{"nextCursor", fmt.Sprintf("page-%d", opts.Tools)})
	}
	w := &writer{pretty: !opts.Compact}
	w.grow(opts.Tools * 1600)
	w.value(doc, 0)
	w.b = append(w.b, '\n')
	return w.b
}

// obj is a JSON object that keeps its key order.
type obj []kv

type kv struct {
	k string
	v any
}

type gen struct {
	r      *rand.Rand
	broken float64
}

func (g *gen) pick(list []string) string { return list[g.r.IntN(len(list))] }

func (g *gen) chance(p float64) bool { return g.r.Float64() < p }

var domains = []struct {
	prefix string
	nouns  []string
}{
	{"files", []string{"file", "directory", "path", "archive", "symlink"}},
	{"git", []string{"commit", "branch", "tag", "diff", "remote"}},
	{"db", []string{"table", "row", "query", "index", "migration"}},
	{"http", []string{"request", "endpoint", "header", "cookie", "webhook"}},
	{"calendar", []string{"event", "invite", "reminder", "slot", "calendar"}},
	{"mail", []string{"message", "thread", "draft", "label", "attachment"}},
	{"search", []string{"document", "result", "index", "snippet", "facet"}},
	{"k8s", []string{"pod", "deployment", "service", "namespace", "secret"}},
	{"billing", []string{"invoice", "payment", "customer", "refund", "subscription"}},
	{"issues", []string{"issue", "comment", "milestone", "label", "project"}},
	{"weather", []string{"forecast", "alert", "station", "observation", "radar"}},
	{"chat", []string{"channel", "message", "reaction", "user", "thread"}},
}

var verbs = []string{"get", "list", "create", "update", "delete", "search", "read", "write", "move", "sync", "archive", "export"}

var words = strings.Fields(`the a an of to for with from in on by and or when if it its this that
each every which returns optional required value values name names identifier list lists item items
file files page pages result results request response server client user users account project
default defaults limit limits number numbers string text field fields filter filters sort order
date time timezone format path directory repository branch commit message messages query queries
match matches pattern patterns include includes exclude excludes maximum minimum count size bytes
status state error errors retry retries timeout seconds milliseconds token tokens scope scopes
owner owners label labels tag tags created updated deleted before after since until range ranges`)

// sentence writes a sentence of about n words.
func (g *gen) sentence(n int) string {
	var b strings.Builder
	for i := range n {
		w := g.pick(words)
		if i == 0 {
			w = strings.ToUpper(w[:1]) + w[1:]
		} else {
			b.WriteByte(' ')
		}
		b.WriteString(w)
	}
	b.WriteByte('.')
	return b.String()
}

func (g *gen) description(min, max int) string {
	s := g.sentence(min + g.r.IntN(max-min+1))
	if g.chance(0.3) {
		s += " " + g.sentence(4+g.r.IntN(8))
	}
	return s
}

var paramNames = []string{"path", "query", "limit", "offset", "cursor", "owner", "repo", "branch",
	"message", "title", "body", "labels", "assignee", "state", "since", "until", "timezone",
	"format", "recursive", "force", "dry_run", "page_size", "sort_by", "order", "fields",
	"include_archived", "max_results", "timeout_seconds", "retries", "tags", "metadata", "filter",
	"region", "namespace", "replicas", "image", "env", "ports", "amount", "currency", "email"}

// defs are the shared definitions tools refer to with $ref.
var defs = map[string]func(g *gen) obj{
	"Pagination": func(g *gen) obj {
		return obj{{"type", "object"}, {"properties", obj{
			{"cursor", obj{{"type", "string"}, {"description", g.description(6, 12)}}},
			{"page_size", obj{{"type", "integer"}, {"minimum", 1}, {"maximum", 100}, {"default", 20}}},
		}}}
	},
	"Address": func(g *gen) obj {
		return obj{{"type", "object"}, {"properties", obj{
			{"street", obj{{"type", "string"}}},
			{"city", obj{{"type", "string"}}},
			{"postal_code", obj{{"type", "string"}, {"pattern", "^[0-9A-Z -]{3,10}$"}}},
			{"country", obj{{"type", "string"}, {"minLength", 2}, {"maxLength", 2}}},
		}}, {"required", []any{"city", "country"}}}
	},
	"Filter": func(g *gen) obj {
		return obj{{"type", "object"}, {"properties", obj{
			{"field", obj{{"type", "string"}, {"description", g.description(5, 10)}}},
			{"op", obj{{"type", "string"}, {"enum", []any{"eq", "ne", "lt", "gt", "contains"}}}},
			{"value", obj{{"type", []any{"string", "number", "boolean"}}}},
		}}, {"required", []any{"field", "op", "value"}}}
	},
}

var defNames = []string{"Address", "Filter", "Pagination"}

// param returns a property schema; depth bounds nesting.
func (g *gen) param(depth int) obj {
	desc := kv{"description", g.description(4, 12)}
	k := g.r.IntN(11)
	if depth > 0 && k >= 9 {
		k = g.r.IntN(9) // one level of nested objects
	}
	switch k {
	case 0, 1:
		s := obj{{"type", "string"}, desc}
		switch g.r.IntN(4) {
		case 0:
			s = append(s, kv{"format", g.pick([]string{"uri", "date-time", "email", "uuid"})})
		case 1:
			s = append(s, kv{"minLength", 1}, kv{"maxLength", 256 << g.r.IntN(4)})
		case 2:
			s = append(s, kv{"pattern", g.pick([]string{"^[a-z0-9-]+$", "^[A-Z]{3}$", "^v[0-9]+\\.[0-9]+$"})})
		}
		return s
	case 2:
		n := 3 + g.r.IntN(4)
		enum := make([]any, n)
		for i := range enum {
			enum[i] = fmt.Sprintf("%s_%d", g.pick(words), i)
		}
		return obj{{"type", "string"}, desc, {"enum", enum}, {"default", enum[0]}}
	case 3:
		s := obj{{"type", "integer"}, desc, {"minimum", g.r.IntN(2)}}
		if g.chance(0.7) {
			s = append(s, kv{"maximum", 10 * (1 + g.r.IntN(100))})
		}
		return s
	case 4:
		return obj{{"type", "number"}, desc, {"exclusiveMinimum", 0}, {"maximum", 1e6}}
	case 5:
		return obj{{"type", "boolean"}, desc, {"default", g.chance(0.5)}}
	case 6:
		return obj{{"type", "array"}, desc, {"items", obj{{"type", "string"}, {"minLength", 1}}},
			{"minItems", 1}, {"maxItems", 50}, {"uniqueItems", true}}
	case 7:
		return obj{desc, {"anyOf", []any{obj{{"type", "string"}}, obj{{"type", "null"}}}}}
	case 8:
		return obj{{"$ref", "#/$defs/" + g.pick(defNames)}}
	case 9:
		return obj{{"type", "array"}, desc, {"items", g.object(depth + 1)}}
	default:
		return append(g.object(depth+1), desc)
	}
}

// object returns an object schema with a few properties.
func (g *gen) object(depth int) obj {
	n := 2 + g.r.IntN(3)
	if depth > 0 {
		n = 1 + g.r.IntN(2)
	}
	props := obj{}
	var required []any
	seen := map[string]bool{}
	for len(props) < n {
		name := g.pick(paramNames)
		if seen[name] {
			continue
		}
		seen[name] = true
		props = append(props, kv{name, g.param(depth)})
		if g.chance(0.4) {
			required = append(required, name)
		}
	}
	s := obj{{"type", "object"}, {"properties", props}}
	if len(required) > 0 {
		s = append(s, kv{"required", required})
	}
	if g.chance(0.5) {
		s = append(s, kv{"additionalProperties", false})
	}
	return s
}

func (g *gen) tool(i int) obj {
	d := domains[g.r.IntN(len(domains))]
	noun := g.pick(d.nouns)
	verb := g.pick(verbs)
	name := fmt.Sprintf("%s.%s_%s_%d", d.prefix, verb, noun, i)
	t := obj{{"name", name}}
	if g.chance(0.3) {
		t = append(t, kv{"title", strings.ToUpper(verb[:1]) + verb[1:] + " " + noun})
	}
	t = append(t, kv{"description", g.description(8, 24)})
	schema := g.object(0)
	usesDefs := map[string]bool{}
	if g.chance(0.15) {
		ref := g.pick(defNames)
		usesDefs[ref] = true
		schema = insertProperty(schema, "options", obj{{"$ref", "#/$defs/" + ref}})
	}
	collectRefs(schema, usesDefs)
	if len(usesDefs) > 0 {
		ds := obj{}
		for _, n := range defNames {
			if usesDefs[n] {
				ds = append(ds, kv{n, defs[n](g)})
			}
		}
		schema = append(schema, kv{"$defs", ds})
	}
	if g.chance(0.1) {
		schema = append(obj{{"$schema", "https://json-schema.org/draft/2020-12/schema"}}, schema...)
	}
	t = append(t, kv{"inputSchema", schema})
	if g.chance(0.1) {
		t = append(t, kv{"outputSchema", g.object(1)})
	}
	if g.chance(0.4) {
		t = append(t, kv{"annotations", obj{{"readOnlyHint", verb == "get" || verb == "list" || verb == "read" || verb == "search"}, {"openWorldHint", g.chance(0.3)}}})
	}
	if g.broken > 0 && g.chance(g.broken) {
		t = g.breakTool(t)
	}
	return t
}

// breakTool gives a tool one of the defects servers ship.
func (g *gen) breakTool(t obj) obj {
	schema := get(t, "inputSchema").(obj)
	switch g.r.IntN(7) {
	case 0: // no root type
		set(schema, "type", nil)
	case 1: // required names a property that does not exist
		if i := index(schema, "required"); i >= 0 {
			schema[i].v = append(schema[i].v.([]any), "missing_param")
		} else {
			schema = append(schema, kv{"required", []any{"missing_param"}})
		}
	case 2: // a name clients refuse
		set(t, "name", g.pick([]string{"Get File", "files/read", "search repos!", "ünïcode_tool", strings.Repeat("very_long_name_", 10)}))
	case 3: // no description
		set(t, "description", nil)
	case 4: // an invalid type keyword
		schema = insertProperty(schema, "count", obj{{"type", "int"}, {"description", g.description(4, 8)}})
	case 5: // a dangling $ref
		schema = insertProperty(schema, "config", obj{{"$ref", "#/$defs/Missing"}})
	case 6: // bare integer parameters
		schema = insertProperty(schema, "page", obj{{"type", "integer"}})
	}
	set(t, "inputSchema", schema)
	return t
}

func index(o obj, k string) int {
	for i, e := range o {
		if e.k == k {
			return i
		}
	}
	return -1
}

func get(o obj, k string) any {
	if i := index(o, k); i >= 0 {
		return o[i].v
	}
	return nil
}

// set replaces the value of k in place; nil removes the member.
func set(o obj, k string, v any) {
	if i := index(o, k); i >= 0 {
		if v == nil {
			copy(o[i:], o[i+1:])
			o[len(o)-1] = kv{}
		} else {
			o[i].v = v
		}
	}
}

func insertProperty(schema obj, name string, s obj) obj {
	i := index(schema, "properties")
	if i < 0 {
		return append(schema, kv{"properties", obj{{name, s}}})
	}
	props := schema[i].v.(obj)
	if index(props, name) < 0 {
		schema[i].v = append(props, kv{name, s})
	}
	return schema
}

func collectRefs(v any, into map[string]bool) {
	switch x := v.(type) {
	case obj:
		for _, e := range x {
			if e.k == "$ref" {
				if s, ok := e.v.(string); ok && strings.HasPrefix(s, "#/$defs/") {
					if n := s[len("#/$defs/"):]; defs[n] != nil {
						into[n] = true
					}
				}
			}
			collectRefs(e.v, into)
		}
	case []any:
		for _, e := range x {
			collectRefs(e, into)
		}
	}
}

// writer spells values as JSON, indented by two spaces when pretty.
// Arrays of scalars stay on one line, as formatters leave short ones.
type writer struct {
	b      []byte
	pretty bool
}

func (w *writer) grow(n int) { w.b = make([]byte, 0, n) }

func (w *writer) newline(depth int) {
	if w.pretty {
		w.b = append(w.b, '\n')
		for range depth {
			w.b = append(w.b, ' ', ' ')
		}
	}
}

func (w *writer) value(v any, depth int) {
	switch x := v.(type) {
	case obj:
		// set() leaves zero members at the end of a shortened object.
		n := 0
		for _, e := range x {
			if e.k != "" {
				n++
			}
		}
		if n == 0 {
			w.b = append(w.b, "{}"...)
			return
		}
		w.b = append(w.b, '{')
		i := 0
		for _, e := range x {
			if e.k == "" {
				continue
			}
			if i > 0 {
				w.b = append(w.b, ',')
			}
			i++
			w.newline(depth + 1)
			w.str(e.k)
			w.b = append(w.b, ':')
			if w.pretty {
				w.b = append(w.b, ' ')
			}
			w.value(e.v, depth+1)
		}
		w.newline(depth)
		w.b = append(w.b, '}')
	case []any:
		flat := true
		for _, e := range x {
			switch e.(type) {
			case obj, []any:
				flat = false
			}
		}
		w.b = append(w.b, '[')
		for i, e := range x {
			if i > 0 {
				w.b = append(w.b, ',')
				if flat && w.pretty {
					w.b = append(w.b, ' ')
				}
			}
			if !flat {
				w.newline(depth + 1)
			}
			w.value(e, depth+1)
		}
		if !flat && len(x) > 0 {
			w.newline(depth)
		}
		w.b = append(w.b, ']')
	case string:
		w.str(x)
	default:
		b, err := json.Marshal(x)
		if err != nil {
			b = []byte("null") // the generator makes no value JSON cannot spell
		}
		w.b = append(w.b, b...)
	}
}

func (w *writer) str(s string) {
	b, _ := json.Marshal(s)
	w.b = append(w.b, b...)
}
