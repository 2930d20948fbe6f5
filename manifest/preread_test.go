package manifest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// located spells out what loading src found: the shape, documents, tools
// and other entries with their spans, or the error.
func located(name string, src []byte) string {
	m, err := Load(name, src)
	if err != nil {
		return "error: " + err.Error()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s docs %v\n", m.Format, m.Shape, m.Docs)
	for _, t := range m.Tools {
		fmt.Fprintf(&b, "tool %d doc %d %q %q %s [%d,%d)\n", t.Index, t.Doc, t.Pointer, t.Name, t.SchemaKey, t.start, t.end)
	}
	for _, es := range [][]*Entry{m.Prompts, m.Resources, m.Templates, m.Results, {m.Server}} {
		for _, e := range es {
			if e != nil {
				fmt.Fprintf(&b, "entry %v %d doc %d %q %q %q [%d,%d)\n", e.Kind, e.Index, e.Doc, e.Pointer, e.Name, e.Key, e.start, e.end)
			}
		}
	}
	fmt.Fprintf(&b, "refusals %+v skipped %+v\n", m.Refusals, m.Skipped)
	return b.String()
}

// locatedWithout is located with the validating pass keeping nothing, so
// that the tools are located by reading their bytes again.
func locatedWithout(name string, src []byte) string {
	prereading = false
	defer func() { prereading = true }()
	return located(name, src)
}

// TestPrereadsLocateTheSame loads every JSON source of the repository's test
// data, and damaged copies of them, with and without prereads: the tools,
// entries, shapes and errors found must be the same.
func TestPrereadsLocateTheSame(t *testing.T) {
	var files []string
	for _, pattern := range []string{"../testdata/*/*.json", "../testdata/*/*/*.json", "../rules/testdata/cases/*/*/*.json", "../rules/testdata/cases/*/*.json", "../convert/testdata/*.json", "testdata/*.json*"} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 500 {
		t.Fatalf("found %d JSON sources; the globs no longer match the test data", len(files))
	}
	sources := map[string][]byte{
		"rpc.json":    []byte(`{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a","inputSchema":{"type":"object"}},{"name":"b"}],"nextCursor":"c"}}`),
		"stream.json": []byte(`{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a"}]}}` + "\n" + `{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"b"}]}}`),
		"array.json":  []byte(`[{"name":"a"},7]`),
		"mixed.json":  []byte(`{"tools":[{"name":"a"},{"type":"function","function":{"name":"b","parameters":{}}}]}`),
		"twice.json":  []byte(`{"tools":[{"name":"a"}],"result":{"tools":[{"name":"b"}]},"id":1}`),
		"bom.json":    []byte("\xEF\xBB\xBF" + `{"tools":[{"name":"a"}]}`),
	}
	// More tools than a block of kept entries holds.
	var many strings.Builder
	many.WriteString(`{"tools":[`)
	for i := range 2*blockLen + 100 {
		if i > 0 {
			many.WriteString(",")
		}
		fmt.Fprintf(&many, `{"name":"t%d","inputSchema":{"type":"object"},"type":"x"}`, i)
	}
	many.WriteString("]}")
	sources["many.json"] = []byte(many.String())
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sources[f] = src
	}
	compared, differ := 0, 0
	check := func(name string, src []byte, what string) {
		compared++
		want := locatedWithout(name, src)
		if got := located(name, src); got != want {
			differ++
			if differ <= 5 {
				t.Errorf("%s (%s): with prereads\n%s\nwithout\n%s", name, what, got, want)
			}
		}
	}
	for name, src := range sources {
		check(name, src, "as is")
		// Damage each source at a few places: cut short, a byte doubled,
		// a byte dropped, a member repeated.
		for k := 1; k <= 4; k++ {
			i := len(src) * k / 5
			check(name, src[:i], fmt.Sprintf("cut at %d", i))
			check(name, append(append(src[:i:i], src[i]), src[i:]...), fmt.Sprintf("byte %d doubled", i))
			check(name, append(src[:i:i], src[i+1:]...), fmt.Sprintf("byte %d dropped", i))
		}
		if j := strings.Index(string(src), `"name"`); j > 0 {
			check(name, append([]byte(string(src[:j])+`"name": "x", `), src[j:]...), "name repeated")
		}
	}
	t.Logf("%d sources compared", compared)
}

// FuzzPrereads is TestPrereadsLocateTheSame on any source.
func FuzzPrereads(f *testing.F) {
	for _, s := range []string{
		`{"tools":[{"name":"a","inputSchema":{"type":"object"}}],"nextCursor":"c"}`,
		`{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a"}]}}` + "\n" + `{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}`,
		`[{"name":"a"},{"name":"b","inputSchema":{"enum":[1,2.5e3,null,true]}}]`,
		`{"tools":[{"name":"a","name":"b"}]}`,
		`{"result":{"result":{"tools":[1]}},"jsonrpc":"2.0"}`,
		`{"tools":[{"googleSearch":{}},{"functionDeclarations":[{"name":"a","parameters":{"type":"OBJECT"}}]}]}`,
		`{"jsonrpc":"2.0","id":"prompts/list","result":{"prompts":[{"name":"p"}]}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if got, want := located("m.json", src), locatedWithout("m.json", src); got != want {
			t.Fatalf("with prereads\n%s\nwithout\n%s", got, want)
		}
	})
}
