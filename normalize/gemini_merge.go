package normalize

import (
	"maps"
	"reflect"
	"slices"

	"github.com/mcpfit/mcplint/pointer"
	"github.com/mcpfit/mcplint/schema"
)

var (
	lowerBounds = map[string]bool{"minimum": true, "minLength": true, "minItems": true, "minProperties": true, "exclusiveMinimum": true}
	upperBounds = map[string]bool{"maximum": true, "maxLength": true, "maxItems": true, "maxProperties": true, "exclusiveMaximum": true}
)

// mergeSchemas merges add into base, as allOf (or "$ref" beside other
// keywords) demands both: properties and required are united, bounds take
// the tighter, annotations keep base's. A keyword both set to values that
// cannot be combined keeps base's, and the Loss names it.
func mergeSchemas(base, add map[string]any, ptr, via string) []Loss {
	return (&merger{}).merge(base, add, ptr, via)
}

// merger merges schemas into one base after another (the branches of an
// allOf), keeping what it built so that the next merge extends it in
// place: copying the properties and the required names united so far for
// each branch took time in the square of the branches.
type merger struct {
	// owned are the properties maps the merger made, held so that no
	// other map takes the address of one.
	owned map[uintptr]map[string]any
	lists map[listKey]united // the lists it made, by holder and keyword
}

type listKey struct {
	holder uintptr
	k      string
}

// united is a list the merger made, with the set of its values.
type united struct {
	l    []any
	seen *schema.Set
}

func (g *merger) merge(base, add map[string]any, ptr, via string) []Loss {
	var ls []Loss
	nb, na := admitsNull(base), admitsNull(add)
	for _, k := range slices.Sorted(maps.Keys(add)) {
		av := add[k]
		bv, has := base[k]
		switch {
		case k == "nullable":
			continue
		case !has:
			base[k] = av
			continue
		case reflect.DeepEqual(av, bv) || geminiAnnotation[k]:
			continue
		}
		switch {
		case k == "properties":
			bp, ok1 := bv.(map[string]any)
			ap, ok2 := av.(map[string]any)
			if !ok1 || !ok2 {
				loss(&ls, ptr, via, "%q of the merged schemas differ; the first is kept", k)
				continue
			}
			np := bp
			if g.owned[schema.Identity(bp)] == nil {
				np = maps.Clone(bp)
				if g.owned == nil {
					g.owned = map[uintptr]map[string]any{}
				}
				g.owned[schema.Identity(np)] = np
			}
			for _, n := range slices.Sorted(maps.Keys(ap)) {
				bs, ok := np[n].(map[string]any)
				as, ok2 := ap[n].(map[string]any)
				switch {
				case np[n] == nil:
					np[n] = ap[n]
				case ok && ok2 && !reflect.DeepEqual(bs, as):
					m := schema.Clone(bs).(map[string]any)
					ls = append(ls, g.merge(m, as, ptr+"/properties/"+pointer.Escape(n), via)...)
					np[n] = m
				}
			}
			base[k] = np
		case k == "items":
			bs, ok1 := bv.(map[string]any)
			as, ok2 := av.(map[string]any)
			if !ok1 || !ok2 {
				loss(&ls, ptr, via, "%q of the merged schemas differ; the first is kept", k)
				continue
			}
			m := schema.Clone(bs).(map[string]any)
			ls = append(ls, g.merge(m, as, ptr+"/items", via)...)
			base[k] = m
		case k == "required" || k == "propertyOrdering":
			bl, _ := bv.([]any)
			al, _ := av.([]any)
			key := listKey{schema.Identity(base), k}
			u, ok := g.lists[key]
			if !ok || len(u.l) != len(bl) || len(bl) > 0 && &u.l[0] != &bl[0] {
				u = united{append([]any{}, bl...), schema.NewSet(bl...)}
			}
			for _, n := range al {
				if u.seen.Add(n) {
					u.l = append(u.l, n)
				}
			}
			if g.lists == nil {
				g.lists = map[listKey]united{}
			}
			g.lists[key] = u
			base[k] = u.l
		case lowerBounds[k] || upperBounds[k]:
			if _, ok := number(av); !ok {
				loss(&ls, ptr, via, "%q of the merged schemas differ; the first is kept", k)
				continue
			}
			narrow(base, k, av, lowerBounds[k])
		case k == "type" && isNumericPair(av, bv):
			base[k] = "integer"
		case k == "enum":
			bl, ok1 := bv.([]any)
			al, ok2 := av.([]any)
			if !ok1 || !ok2 {
				loss(&ls, ptr, via, "%q of the merged schemas differ; the first is kept", k)
				continue
			}
			var both []any
			in := schema.NewSet(al...)
			for _, v := range bl {
				if in.Has(v) {
					both = append(both, v)
				}
			}
			if len(both) == 0 {
				loss(&ls, ptr, via, "the merged enums share no value; the first is kept")
				continue
			}
			base[k] = both
		default:
			loss(&ls, ptr, via, "%q of the merged schemas differ (%s and %s); Gemini's subset cannot require both, the first is kept", k, schema.Compact(bv), schema.Compact(av))
		}
	}
	if nb && na {
		if base["nullable"] == true || add["nullable"] == true {
			base["nullable"] = true
		}
	} else {
		delete(base, "nullable")
	}
	return ls
}

// admitsNull reports whether a schema accepts null: it says nullable, names
// null among its types, or does not constrain the type.
func admitsNull(m map[string]any) bool {
	if m["nullable"] == true || schema.HasType(m, "null") {
		return true
	}
	for _, k := range []string{"type", "enum", "const", "anyOf", "oneOf", "allOf", "$ref"} {
		if _, ok := m[k]; ok {
			return false
		}
	}
	return true
}

func isNumericPair(a, b any) bool {
	return a == "integer" && b == "number" || a == "number" && b == "integer"
}
