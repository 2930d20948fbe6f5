package schema

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcpfit/mcplint/pointer"
)

// NumberError is a JSON number the validator is not given. The validator
// compares numbers as math/big rationals: big.Rat refuses an exponent past
// a million (1e-99999999999), after which the validator dereferences nil,
// and an exact value of a large exponent or of many digits is costly to
// build and compare (1e999999 is three million bits, some 60 ms a keyword
// with multipleOf, so a 14 KB schema took 12 s). A schema or an instance
// from a stranger (a tool list, a server's result, a client's arguments)
// can hold any number, so one whose exponent is beyond ±MaxExponent, or
// whose text is longer than MaxNumberLen, is refused before validation.
// No client represents one: JavaScript reads 1e999 as Infinity.
type NumberError struct {
	Pointer string // where the number is in the value validated (RFC 6901)
	Number  string
}

// Bounds of the numbers Validate hands to the validator; see NumberError.
const (
	MaxExponent  = 1000
	MaxNumberLen = 1000
)

func (e *NumberError) Error() string {
	n := e.Number
	if len(n) > 40 {
		n = n[:20] + "…" + n[len(n)-12:]
	}
	return fmt.Sprintf("the number %s is past what mcplint compares (an exponent beyond ±%d, or more than %d characters), and no client represents it; write a number within the range of a double", n, MaxExponent, MaxNumberLen)
}

// Comparable says whether n is within the bounds of NumberError.
func Comparable(n json.Number) bool {
	s := string(n)
	if len(s) > MaxNumberLen {
		return false
	}
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.Atoi(s[i+1:])
		return err == nil && e <= MaxExponent && e >= -MaxExponent
	}
	return true
}

// Validate is s.Validate(v) with its numbers bounded (a *NumberError at
// the first number out of bounds) and never a panic: should the validator
// fail on something else, that is an error saying so.
func Validate(s *jsonschema.Schema, v any) (err error) {
	if !numbersComparable(v) {
		return findNumber(v, "")
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the JSON Schema validator failed on this value: %v", r)
		}
	}()
	return s.Validate(v)
}

// compile is c.Compile(url) for doc, with Validate's guarantees: the
// compiler validates doc against its metaschema.
func compile(c *jsonschema.Compiler, url string, doc any) (s *jsonschema.Schema, err error) {
	if !numbersComparable(doc) {
		return nil, findNumber(doc, "")
	}
	defer func() {
		if r := recover(); r != nil {
			s, err = nil, fmt.Errorf("the JSON Schema compiler failed on this schema: %v", r)
		}
	}()
	return c.Compile(url)
}

// numbersComparable says whether every number of v is Comparable: the
// walk of every validation, so it allocates nothing; findNumber then
// finds the first one in key order.
func numbersComparable(v any) bool {
	switch x := v.(type) {
	case json.Number:
		return Comparable(x)
	case map[string]any:
		for _, e := range x {
			if !numbersComparable(e) {
				return false
			}
		}
	case []any:
		for _, e := range x {
			if !numbersComparable(e) {
				return false
			}
		}
	}
	return true
}

// findNumber returns the first number (in key order) of v out of the
// bounds of NumberError.
func findNumber(v any, at string) *NumberError {
	switch x := v.(type) {
	case json.Number:
		if !Comparable(x) {
			return &NumberError{Pointer: at, Number: string(x)}
		}
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if e := findNumber(x[k], at+"/"+pointer.Escape(k)); e != nil {
				return e
			}
		}
	case []any:
		for i, e := range x {
			if e := findNumber(e, at+"/"+strconv.Itoa(i)); e != nil {
				return e
			}
		}
	}
	return nil
}
