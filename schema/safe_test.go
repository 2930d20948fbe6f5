package schema

import (
	"errors"
	"strings"
	"testing"

	"github.com/mcpfit/mcplint/internal/testenv"
)

// TestHugeExponent: the validator compares numbers as big.Rat, which
// refuses an exponent past a million, and then dereferences nil. A schema
// or an instance holding such a number is a problem at the number, never
// a panic: in the schema (the metaschema's exclusiveMinimum on multipleOf,
// minimum on maxLength), and in an instance against a bound.
func TestHugeExponent(t *testing.T) {
	for src, want := range map[string]string{
		`{"type":"number","multipleOf":1e-99999999999}`:  "/multipleOf: the number 1e-99999999999 is past what a JSON Schema validator can compare",
		`{"type":"string","maxLength":1e99999999999}`:    "/maxLength: ",                // not an integer, to the validator
		`{"properties":{"a/b":{"maxItems":1E+9999999}}}`: "/properties/a~1b/maxItems: ", // not an integer, to the validator
	} {
		doc := testenv.JSON(t, src)
		for _, assumed := range []string{Draft2020, Draft7} {
			got := NewChecker().Problems(doc, assumed)
			if len(got) == 0 || !strings.HasPrefix(got[0].Pointer+": "+got[0].Message, want) {
				t.Errorf("%s (%s): problems %v, want %q", src, assumed, got, want)
			}
			if _, err := CompileDialect(doc, assumed); err == nil {
				t.Errorf("%s (%s): compiled", src, assumed)
			}
		}
	}
	s, err := Compile(testenv.JSON(t, `{"properties":{"x":{"type":"number","minimum":0}}}`))
	if err != nil {
		t.Fatal(err)
	}
	var ne *NumberError
	if err := Validate(s, testenv.JSON(t, `{"x":1e-99999999999}`)); !errors.As(err, &ne) || ne.Pointer != "/x" {
		t.Errorf("Validate = %v, want a *NumberError at /x", err)
	}
	if err := Validate(s, testenv.JSON(t, `{"x":1e-999}`)); err != nil {
		t.Errorf("Validate(1e-999) = %v, want nil", err)
	}
}
