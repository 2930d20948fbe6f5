package schema

import (
	"errors"
	"strings"
	"testing"

	"github.com/mcpfit/mcplint/internal/testenv"
)

// TestHugeExponent: the validator compares numbers as big.Rat, which
// refuses an exponent past a million and then dereferences nil, and takes
// seconds over a schema of a few numbers with large exponents. A schema or
// an instance holding such a number is a problem at the number, never a
// panic nor a validation: in the schema and in an instance.
func TestHugeExponent(t *testing.T) {
	for src, want := range map[string]string{
		`{"type":"number","multipleOf":1e-99999999999}`:  "/multipleOf",
		`{"type":"string","maxLength":1e99999999999}`:    "/maxLength",
		`{"properties":{"a/b":{"maxItems":1E+9999999}}}`: "/properties/a~1b/maxItems",
		`{"minimum":` + strings.Repeat("9", 1001) + `}`:  "/minimum",
		`{"enum":[1,{"x":[1e-1001]}]}`:                   "/enum/1/x/0",
	} {
		doc := testenv.JSON(t, src)
		for _, assumed := range []string{Draft2020, Draft7} {
			// The checker stands a value in for some keywords' numbers
			// and then does not validate them; what it reports of a
			// number is this.
			for _, p := range NewChecker().Problems(doc, assumed) {
				if p.Pointer == want && !strings.Contains(p.Message, "past what mcplint compares") {
					t.Errorf("%.80s (%s): problem %v, want the number's", src, assumed, p)
				}
			}
			var ne *NumberError
			if _, err := CompileDialect(doc, assumed); !errors.As(err, &ne) || ne.Pointer != want {
				t.Errorf("%.80s (%s): compile error %v, want a *NumberError at %s", src, assumed, err, want)
			}
		}
	}
	if got := NewChecker().Problems(testenv.JSON(t, `{"multipleOf":1e-99999999999}`), Draft2020); len(got) != 1 || got[0].Pointer != "/multipleOf" {
		t.Errorf("problems %v, want one at /multipleOf", got)
	}
	s, err := Compile(testenv.JSON(t, `{"properties":{"x":{"type":"number","minimum":0}}}`))
	if err != nil {
		t.Fatal(err)
	}
	var ne *NumberError
	if err := Validate(s, testenv.JSON(t, `{"x":1e-99999999999}`)); !errors.As(err, &ne) || ne.Pointer != "/x" {
		t.Errorf("Validate = %v, want a *NumberError at /x", err)
	}
	if err := Validate(s, testenv.JSON(t, `{"x":1e-1000}`)); err != nil {
		t.Errorf("Validate(1e-999) = %v, want nil", err)
	}
}
