package manifest

import (
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// coreSchemaTable is the YAML 1.2 core schema's resolution of a plain
// scalar, as the specification tabulates it
// (https://yaml.org/spec/1.2.2/#1023-core-schema): the oracle resolvePlain,
// which compares the null and boolean spellings and tries the number
// expressions only on what can start a number, must agree with.
var coreSchemaTable = []struct {
	re   *regexp.Regexp
	kind string
}{
	{regexp.MustCompile(`^(null|Null|NULL|~|)$`), "null"},
	{regexp.MustCompile(`^(true|True|TRUE)$`), "bool"},
	{regexp.MustCompile(`^(false|False|FALSE)$`), "bool"},
	{regexp.MustCompile(`^[-+]?[0-9]+$`), "number"},
	{regexp.MustCompile(`^0o[0-7]+$`), "number"},
	{regexp.MustCompile(`^0x[0-9a-fA-F]+$`), "number"},
	{regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`), "number"},
	{regexp.MustCompile(`^([-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN))$`), "not JSON"},
}

func coreKind(s string) string {
	for _, e := range coreSchemaTable {
		if e.re.MatchString(s) {
			return e.kind
		}
	}
	return "string"
}

func resolvedKind(v any, err error) string {
	if err != nil {
		return "not JSON"
	}
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "bool"
	case string:
		return "string"
	}
	return "number"
}

func FuzzResolvePlain(f *testing.F) {
	for _, s := range []string{
		"", "~", "null", "Null", "NULL", "nULL", "nulls", "~~", "true", "True", "TRUE", "tRUE", "truth", "type",
		"false", "False", "FALSE", "fals", "no", "yes", "on", "off", "y", "0", "-0", "+12", "12a", "0o17", "0o18",
		"0x1F", "0X1F", "0xg", "1.5", ".5", "5.", "-.5e3", "1e", "1e+5", "+", "-", ".", ".inf", "-.Inf", "+.INF",
		".nan", ".NaN", "-.nan", "1_000", "name", "description", "properties", "Tool", "42 ", " 42", "\t", "é",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := resolvePlain(s)
		want := coreKind(s)
		if got := resolvedKind(v, err); got != want {
			t.Fatalf("resolvePlain(%q) = %v, %v: a %s; the core schema says %s", s, v, err, got, want)
		}
		if want == "string" && !cmp.Equal(v, any(s)) {
			t.Fatalf("resolvePlain(%q) = %v, want the string itself", s, v)
		}
	})
}
