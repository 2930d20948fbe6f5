package schema

import (
	"slices"
	"strings"
)

// KeywordOrder is the order people write the members of a tool and of its
// schemas in: a tool's fields in the order the specification lists them,
// then JSON Schema keywords. Edits write new objects in it (objects copied
// from the source keep their keys in place, as edits touch only what
// changed), and walks visit members in it.
var KeywordOrder = []string{
	"name", "title", "description", "inputSchema", "outputSchema", "annotations",
	"$schema", "$id", "$anchor", "$dynamicAnchor", "$ref", "$dynamicRef",
	"type", "const", "enum", "format", "pattern", "minLength", "maxLength",
	"minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum", "multipleOf",
	"items", "prefixItems", "additionalItems", "contains", "minItems", "maxItems", "uniqueItems",
	"properties", "required", "additionalProperties", "patternProperties", "propertyNames",
	"minProperties", "maxProperties", "dependentRequired", "dependentSchemas",
	"oneOf", "anyOf", "allOf", "not", "if", "then", "else",
	"default", "examples", "x-mcp-header", "$defs", "definitions", "_meta",
}

var keywordRank = func() map[string]int {
	r := make(map[string]int, len(KeywordOrder))
	for i, k := range KeywordOrder {
		r[k] = i
	}
	return r
}()

// SortedKeys orders the keys of an object in KeywordOrder, then the rest
// sorted. Walks sort every object they pass, so it looks each key up once.
func SortedKeys(obj map[string]any) []string {
	return SortedKeysInto(make([]string, 0, len(obj)), obj)
}

// SortedKeysInto is SortedKeys reusing buf's storage when it is large
// enough, so that a caller walking many objects can offer a buffer of its
// own.
func SortedKeysInto(buf []string, obj map[string]any) []string {
	keys := buf[:0]
	for k := range obj {
		keys = append(keys, k)
	}
	SortKeywords(keys)
	return keys
}

// SortKeywords sorts distinct keys in place in the order of SortedKeys,
// for a caller that holds some keys of an object rather than the object.
func SortKeywords(keys []string) {
	if len(keys) < 2 {
		return
	}
	var small [16]rankedKey // most objects have a few keys: no allocation
	ranked := small[:0]
	for _, k := range keys {
		r, ok := keywordRank[k]
		if !ok {
			r = len(keywordRank)
		}
		ranked = append(ranked, rankedKey{r, k})
	}
	slices.SortFunc(ranked, compareRanked)
	for i, rk := range ranked {
		keys[i] = rk.key
	}
}

type rankedKey struct {
	rank int
	key  string
}

func compareRanked(a, b rankedKey) int {
	if a.rank != b.rank {
		return a.rank - b.rank
	}
	return strings.Compare(a.key, b.key)
}

// NameMaps are the keywords whose values map names an author chose (of
// properties, definitions, dependencies) to schemas or lists of names. The
// order of their members is the author's: the order a model reads
// properties in. Writers keep it when they know it (SortedNames).
var NameMaps = map[string]bool{
	"properties": true, "patternProperties": true, "$defs": true,
	"definitions": true, "dependentSchemas": true, "dependentRequired": true,
}

// SortedNames orders the members of a map of names by order, which ranks
// names by where their source first spells them (manifest's
// Tool.NameOrder); names it does not rank follow, sorted.
func SortedNames(m map[string]any, order map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	slices.SortStableFunc(keys, func(a, b string) int {
		oa, okA := order[a]
		ob, okB := order[b]
		switch {
		case okA && okB:
			return oa - ob
		case okA:
			return -1
		case okB:
			return 1
		}
		return 0
	})
	return keys
}
