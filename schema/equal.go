package schema

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"reflect"
)

// Equal compares decoded JSON values; numbers compare by value whatever
// their spelling or Go type. An object or array is equal to itself without
// being read: a copy that shares the parts it did not change (as fixes
// build them) compares in the time of the parts it changed.
func Equal(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		if Identity(x) == Identity(y) {
			return true // shared, as a copy of the parts that change shares the rest
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
		if len(x) > 0 && &x[0] == &y[0] {
			return true
		}
		for i := range x {
			if !Equal(x[i], y[i]) {
				return false
			}
		}
		return true
	}
	if fa, ok := Number(a); ok {
		fb, ok := Number(b)
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
		// A huge exponent would make an exact value of gigabytes, and
		// many digits one slow to build.
		if !Comparable(x) {
			return nil, false
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

// Number reads a decoded JSON number (json.Number, or a Go number from
// another decoder) as a float64.
func Number(v any) (float64, bool) {
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

// Compact spells a decoded value as JSON on one line, as messages quote it.
func Compact(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
