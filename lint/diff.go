package lint

import (
	"encoding/json"
	"math"
	"math/big"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/mcplint/mcplint/manifest"
)

// Diff returns the edits that turn old into new, the value at tool-relative
// pointer base. Members present in both are diffed recursively, so keys that
// did not change keep their place and spelling in the source; an object none
// of whose members survive, an array whose length changes, and a value whose
// type changes are replaced whole.
func Diff(base string, old, new any) []manifest.Edit {
	if Equal(old, new) {
		return nil
	}
	switch o := old.(type) {
	case map[string]any:
		n, ok := new.(map[string]any)
		if !ok {
			break
		}
		survivors := 0
		for k := range o {
			if _, ok := n[k]; ok {
				survivors++
			}
		}
		if survivors == 0 && len(o) > 0 {
			break
		}
		var edits []manifest.Edit
		for _, k := range sortedKeys(o) {
			if _, ok := n[k]; !ok {
				edits = append(edits, manifest.Edit{Op: manifest.Remove, Pointer: base + "/" + manifest.EscapePointerToken(k)})
			}
		}
		for _, k := range sortedKeys(o) {
			if nv, ok := n[k]; ok {
				edits = append(edits, Diff(base+"/"+manifest.EscapePointerToken(k), o[k], nv)...)
			}
		}
		for _, k := range manifest.SortedKeys(n) {
			if _, ok := o[k]; !ok {
				edits = append(edits, manifest.Edit{Op: manifest.Add, Pointer: base + "/" + manifest.EscapePointerToken(k), Value: n[k]})
			}
		}
		return edits
	case []any:
		n, ok := new.([]any)
		if !ok || len(n) != len(o) {
			break
		}
		var edits []manifest.Edit
		for i := range o {
			edits = append(edits, Diff(base+"/"+strconv.Itoa(i), o[i], n[i])...)
		}
		return edits
	}
	return []manifest.Edit{{Op: manifest.Replace, Pointer: base, Value: new}}
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Equal compares decoded JSON values; numbers compare by value whatever
// their spelling or Go type.
func Equal(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !Equal(v, w) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !Equal(x[i], y[i]) {
				return false
			}
		}
		return true
	}
	if fa, ok := number(a); ok {
		fb, ok := number(b)
		return ok && fa == fb && sameNumber(a, b)
	}
	return reflect.DeepEqual(a, b)
}

// sameNumber compares two numbers whose float64 values are equal exactly:
// distinct integers beyond 2^53 (IDs, bounds) round to the same float.
func sameNumber(a, b any) bool {
	if x, ok := a.(json.Number); ok {
		if y, ok := b.(json.Number); ok && x == y {
			return true
		}
	}
	ra, okA := exactNumber(a)
	rb, okB := exactNumber(b)
	return !okA || !okB || ra.Cmp(rb) == 0
}

func exactNumber(v any) (*big.Rat, bool) {
	switch x := v.(type) {
	case json.Number:
		// A huge exponent would make an exact value of gigabytes.
		if i := strings.IndexAny(string(x), "eE"); i >= 0 {
			if e, err := strconv.Atoi(string(x[i+1:])); err != nil || e > 1000 || e < -1000 {
				return nil, false
			}
		}
		return new(big.Rat).SetString(string(x))
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return nil, false
		}
		return new(big.Rat).SetFloat64(x), true
	case int:
		return new(big.Rat).SetInt64(int64(x)), true
	case int64:
		return new(big.Rat).SetInt64(x), true
	}
	return nil, false
}

func number(v any) (float64, bool) {
	switch x := v.(type) {
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	case float64:
		return x, true
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	}
	return 0, false
}
