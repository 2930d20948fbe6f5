package convert

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mcpfit/mcplint/pointer"
	"github.com/mcpfit/mcplint/schema"
)

// zodSample is a value to validate, with the pointer of the subschema
// whose candidate it carries, so a disagreement can be traced to a
// warning.
type zodSample struct {
	Value any    `json:"value"`
	Ptr   string `json:"ptr"`
	// Also are the pointers of the values the sample was built around
	// (the first candidate of each other property).
	Also []string `json:"also,omitempty"`
}

// zodSampler makes valid and invalid values for a schema: its own
// examples, defaults, enum and const values, bounds and their neighbours,
// wrong types, missing required and extra properties, nested variants.
type zodSampler struct {
	root     map[string]any
	resolver *schema.Resolver
	dialect  string
}

const zodMaxPerNode = 60

// zodMaxSamples bounds the samples of one schema.
const zodMaxSamples = 400

func zodSamples(root map[string]any) []zodSample {
	sm := &zodSampler{root: root, resolver: schema.NewResolver(root)}
	sm.dialect, _ = schema.Dialect(root)
	all := sm.gen(root, "", 0)
	for _, w := range []any{nil, true, json.Number("7"), "x", []any{}} {
		all = append(all, zodSample{w, "", nil})
	}
	// The same value reached from several subschemas is validated once,
	// under all their pointers.
	var out []zodSample
	at := map[string]int{}
	for _, s := range all {
		b, _ := json.Marshal(s.Value)
		if i, ok := at[string(b)]; ok {
			out[i].Also = append(append(out[i].Also, s.Ptr), s.Also...)
			continue
		}
		at[string(b)] = len(out)
		out = append(out, s)
	}
	return out
}

func zodNum(f float64) json.Number {
	return json.Number(fmt.Sprint(f))
}

func (sm *zodSampler) gen(v any, ptr string, depth int) []zodSample {
	s, ok := v.(map[string]any)
	if !ok || depth > 6 {
		return []zodSample{{"x", ptr, nil}, {json.Number("1"), ptr, nil}}
	}
	var out []zodSample
	add := func(vals ...any) {
		for _, x := range vals {
			out = append(out, zodSample{x, ptr, nil})
		}
	}
	if ex, ok := s["examples"].([]any); ok {
		add(ex...)
	}
	for _, k := range []string{"default", "const"} {
		if x, ok := s[k]; ok {
			add(x)
		}
	}
	if en, ok := s["enum"].([]any); ok {
		add(en...)
	}
	if ref, ok := s["$ref"].(string); ok {
		if r := sm.resolver.Resolve(ptr, ref); r.Found {
			out = append(out, sm.gen(r.Target, r.Pointer, depth+2)...)
		}
	}
	for _, k := range []string{"allOf", "anyOf", "oneOf"} {
		if list, ok := s[k].([]any); ok {
			for i, sub := range list {
				out = append(out, sm.gen(sub, fmt.Sprintf("%s/%s/%d", ptr, k, i), depth+1)...)
			}
		}
	}
	for _, k := range []string{"not", "if", "then", "else"} {
		if sub, ok := s[k]; ok {
			out = append(out, sm.gen(sub, ptr+"/"+k, depth+1)...)
		}
	}
	types := schema.Types(s)
	if len(types) == 0 {
		for k := range s {
			if t := zodTypeKeywords[k]; t != "" && !strings.Contains(strings.Join(types, " "), t) {
				types = append(types, t)
			}
		}
	}
	for _, t := range types {
		switch t {
		case "string":
			out = append(out, sm.strings(s, ptr)...)
		case "integer", "number":
			out = append(out, sm.numbers(s, ptr)...)
		case "boolean":
			add(true, false)
		case "null":
			add(nil)
		case "array":
			out = append(out, sm.arrays(s, ptr, depth)...)
		case "object":
			out = append(out, sm.objects(s, ptr, depth)...)
		}
	}
	if depth <= 3 {
		add(nil, true, json.Number("3"), json.Number("2.5"), "wrong", []any{json.Number("1")}, map[string]any{})
	}
	if limit := zodMaxPerNode; len(out) > limit && depth > 0 {
		out = out[:limit]
	}
	if len(out) > zodMaxSamples {
		out = out[:zodMaxSamples]
	}
	return out
}

var zodFormatSamples = map[string][]any{
	"email":     {"user@example.com", "not an email", "a@b"},
	"uri":       {"https://example.com/a?b=c", "not a uri", "mailto:x@example.com", "/relative"},
	"url":       {"https://example.com/", "example.com"},
	"uuid":      {"123e4567-e89b-12d3-a456-426614174000", "123e4567e89b12d3a456426614174000"},
	"date-time": {"2024-01-02T03:04:05Z", "2024-01-02T03:04:05+02:00", "2024-01-02 03:04:05", "2024-01-02"},
	"date":      {"2024-01-02", "2024-13-40", "02/01/2024"},
	"time":      {"03:04:05Z", "03:04:05", "25:00:00Z"},
	"ipv4":      {"192.168.0.1", "256.0.0.1", "::1"},
	"ipv6":      {"::1", "2001:db8::1", "192.168.0.1"},
	"hostname":  {"example.com", "-bad-.com", "a_b"},
	"duration":  {"P1D", "PT1H", "1 day"},
}

func (sm *zodSampler) strings(s map[string]any, ptr string) []zodSample {
	var vals []any
	if f, ok := s["format"].(string); ok {
		vals = append(vals, zodFormatSamples[f]...)
	}
	lo, hasLo := zodCount(s, "minLength")
	hi, hasHi := zodCount(s, "maxLength")
	n := int64(3)
	if hasLo {
		n = lo
	}
	vals = append(vals, strings.Repeat("a", int(n)), "", "a", "abc", "a/b", "hello world", "line\nbreak", "é")
	if hasLo {
		vals = append(vals, strings.Repeat("b", int(max(lo-1, 0))), strings.Repeat("b", int(lo+1)))
	}
	if hasHi && hi < 1000 {
		vals = append(vals, strings.Repeat("c", int(hi)), strings.Repeat("c", int(hi+1)))
	}
	var out []zodSample
	for _, v := range vals {
		out = append(out, zodSample{v, ptr, nil})
	}
	return out
}

func (sm *zodSampler) numbers(s map[string]any, ptr string) []zodSample {
	vals := []float64{0, 1, -1, 2.5, 100}
	for _, k := range []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"} {
		if n, ok := s[k].(json.Number); ok {
			f, _ := n.Float64()
			vals = append([]float64{f + 1}, append(vals, f, f-1, f+0.5)...)
		}
	}
	if n, ok := s["multipleOf"].(json.Number); ok {
		f, _ := n.Float64()
		vals = append(vals, f*3, f*3+1, f/2)
	}
	var out []zodSample
	for _, f := range vals {
		out = append(out, zodSample{zodNum(f), ptr, nil})
	}
	return out
}

func (sm *zodSampler) arrays(s map[string]any, ptr string, depth int) []zodSample {
	var items []zodSample
	if it, ok := s["items"]; ok {
		if _, isList := it.([]any); !isList {
			items = sm.gen(it, ptr+"/items", depth+1)
		}
	}
	var prefix [][]zodSample
	for _, k := range []string{"prefixItems", "items"} {
		if list, ok := s[k].([]any); ok {
			for i, p := range list {
				prefix = append(prefix, sm.gen(p, fmt.Sprintf("%s/%s/%d", ptr, k, i), depth+1))
			}
			break
		}
	}
	first := func(c []zodSample) any {
		if len(c) == 0 {
			return "x"
		}
		return c[0].Value
	}
	out := []zodSample{{[]any{}, ptr, nil}}
	base := []any{}
	var also []string
	for _, p := range prefix {
		if len(p) > 0 {
			also = append(append(also, p[0].Ptr), p[0].Also...)
		}
		base = append(base, first(p))
		out = append(out, zodSample{append([]any(nil), base...), ptr, nil})
	}
	for i, p := range prefix {
		for _, c := range p {
			v := append([]any(nil), base...)
			v[i] = c.Value
			out = append(out, zodSample{v, c.Ptr, c.Also})
		}
	}
	extra := first(items)
	out = append(out, zodSample{append(append([]any(nil), base...), extra), ptr, nil})
	for _, c := range items {
		out = append(out, zodSample{append(append([]any(nil), base...), c.Value), c.Ptr, c.Also})
	}
	out = append(out, zodSample{append(append([]any(nil), base...), extra, extra), ptr, nil})
	for _, k := range []string{"minItems", "maxItems"} {
		if n, ok := zodCount(s, k); ok && n < 50 {
			for _, l := range []int64{n - 1, n, n + 1} {
				if l < 0 {
					continue
				}
				v := append([]any(nil), base...)
				for int64(len(v)) < l {
					v = append(v, extra)
				}
				out = append(out, zodSample{v[:l], ptr, nil})
			}
		}
	}
	if len(items) > 0 {
		also = append(append(also, items[0].Ptr), items[0].Also...)
	}
	for i := range out {
		out[i].Also = append(out[i].Also, also...)
	}
	return out
}

func (sm *zodSampler) objects(s map[string]any, ptr string, depth int) []zodSample {
	props, _ := s["properties"].(map[string]any)
	var required []string
	if req, ok := s["required"].([]any); ok {
		for _, r := range req {
			if name, ok := r.(string); ok {
				required = append(required, name)
			}
		}
	}
	children := map[string][]zodSample{}
	base := map[string]any{}
	var also []string
	for _, k := range slices.Sorted(maps.Keys(props)) {
		children[k] = sm.gen(props[k], ptr+"/properties/"+pointer.Escape(k), depth+1)
		if len(children[k]) > 0 {
			base[k] = children[k][0].Value
			also = append(append(also, children[k][0].Ptr), children[k][0].Also...)
		}
	}
	for _, r := range required {
		if _, ok := base[r]; !ok {
			base[r] = "present"
		}
	}
	onlyRequired := map[string]any{}
	for _, r := range required {
		onlyRequired[r] = base[r]
	}
	cloneOf := func(b map[string]any) map[string]any {
		m := make(map[string]any, len(b))
		for k, v := range b {
			m[k] = v
		}
		return m
	}
	clone := func() map[string]any { return cloneOf(base) }
	out := []zodSample{{base, ptr, nil}, {onlyRequired, ptr, nil}}
	// Variants start from the required properties alone, so one
	// property's value decides the verdict rather than another's.
	for _, b := range []map[string]any{base, onlyRequired} {
		for _, r := range required {
			m := cloneOf(b)
			delete(m, r)
			out = append(out, zodSample{m, ptr + "/properties/" + pointer.Escape(r), nil})
		}
		extra := cloneOf(b)
		extra["zzExtra"] = "x"
		out = append(out, zodSample{extra, ptr, nil})
		extraNum := cloneOf(b)
		extraNum["x-num"] = json.Number("1")
		out = append(out, zodSample{extraNum, ptr, nil})
	}
	for _, k := range slices.Sorted(maps.Keys(props)) {
		for _, c := range children[k] {
			m := cloneOf(onlyRequired)
			m[k] = c.Value
			out = append(out, zodSample{m, c.Ptr, c.Also})
		}
	}
	if pp, ok := s["patternProperties"].(map[string]any); ok {
		for p := range pp {
			for _, name := range []string{"S_1", "I_1", "a1", "x-" + p} {
				m := clone()
				m[name] = "v"
				out = append(out, zodSample{m, ptr, nil})
			}
		}
	}
	for i := range out {
		out[i].Also = append(out[i].Also, also...)
	}
	return out
}
