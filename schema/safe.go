package schema

import (
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"strconv"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcpfit/mcplint/pointer"
)

// NumberError is a JSON number the validator cannot hold: the validator
// compares numbers as math/big rationals, and big.Rat refuses a number
// whose exponent is past a million (1e-99999999999), after which the
// validator dereferences nil. A schema or an instance from a stranger (a
// tool list, a server's result, a client's arguments) can hold one.
type NumberError struct {
	Pointer string // where the number is in the value validated (RFC 6901)
	Number  string
}

func (e *NumberError) Error() string {
	n := e.Number
	if len(n) > 40 {
		n = n[:20] + "…" + n[len(n)-12:]
	}
	return fmt.Sprintf("the number %s is past what a JSON Schema validator can compare (an exponent beyond ±1,000,000); write it with a smaller exponent", n)
}

// Validate is s.Validate(v) that never panics: a panic of the validator
// (on a number it cannot hold) is a *NumberError at the number, or, should
// the validator fail on something else, an error saying so.
func Validate(s *jsonschema.Schema, v any) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = panicError(v, r)
		}
	}()
	return s.Validate(v)
}

// compile is c.Compile(url) for doc, with Validate's guarantee: the
// compiler validates doc against its metaschema.
func compile(c *jsonschema.Compiler, url string, doc any) (s *jsonschema.Schema, err error) {
	defer func() {
		if r := recover(); r != nil {
			s, err = nil, panicError(doc, r)
		}
	}()
	return c.Compile(url)
}

func panicError(v any, r any) error {
	if e := findNumber(v, ""); e != nil {
		return e
	}
	return fmt.Errorf("the JSON Schema validator failed on this value: %v", r)
}

// findNumber returns the first number (in key order) of v that big.Rat
// cannot read.
func findNumber(v any, at string) *NumberError {
	switch x := v.(type) {
	case json.Number:
		if _, ok := new(big.Rat).SetString(string(x)); !ok {
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
