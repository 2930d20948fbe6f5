package manifest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// aliasBomb is a YAML document of a few hundred bytes whose aliases stand
// for levels^9 strings ("a billion laughs").
func aliasBomb(levels int) string {
	var b strings.Builder
	b.WriteString(`a: &a ["x","x","x","x","x","x","x","x","x"]` + "\n")
	for i := 1; i < levels; i++ {
		p, n := string(rune('a'+i-1)), string(rune('a'+i))
		fmt.Fprintf(&b, "%s: &%s [*%s,*%s,*%s,*%s,*%s,*%s,*%s,*%s,*%s]\n", n, n, p, p, p, p, p, p, p, p, p)
	}
	return b.String()
}

// TestDocumentLimits: a file that is not a tool list is read under the
// same limits as one, in YAML and in JSON.
func TestDocumentLimits(t *testing.T) {
	bomb := aliasBomb(9) // 9^9 strings: 387 million, over 1.5 GB of JSON
	if len(bomb) > 400 {
		t.Fatalf("the bomb is %d bytes", len(bomb))
	}
	_, err := DefaultLimits.ParseDocument("config.yaml", []byte(bomb))
	limitErr(t, err, LimitYAMLExpansion, "config.yaml:7:26: aliases stand for more than 16 MiB of values")

	deepYAML := "a: " + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + "\n"
	_, err = DefaultLimits.ParseDocument("deep.yaml", []byte(deepYAML))
	limitErr(t, err, LimitDepth, "deep.yaml:1:1011: nesting deeper than 1000 levels")

	deepJSON := `{"a": ` + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + "}"
	_, err = DefaultLimits.ParseDocument("deep.lock", []byte(deepJSON), JSON)
	limitErr(t, err, LimitDepth, "deep.lock:1:1015: nesting deeper than 1000 levels")
	_, err = (Limits{Depth: 10}).ParseDocument("deep.json", []byte(`{"a":`+strings.Repeat("[", 19)+strings.Repeat("]", 19)+"}"))
	limitErr(t, err, LimitDepth, "nesting deeper than 10 levels")
	if _, err := (Limits{Depth: 10}).ParseDocument("ok.json", []byte(`{"a":`+strings.Repeat("[", 17)+strings.Repeat("]", 17)+"}")); err != nil {
		t.Errorf("nesting within the limit: %v", err)
	}

	many := strings.Repeat("- x\n", 2000)
	_, err = (Limits{YAMLTokens: 1000}).ParseDocument("many.yaml", []byte(many))
	limitErr(t, err, LimitYAMLTokens, "the YAML source has more than 1000 tokens")
	_, err = (Limits{YAMLSize: 1000}).ParseDocument("big.yaml", []byte(many))
	limitErr(t, err, LimitYAMLSize, "big.yaml: the YAML source is larger than the limit of 1000 bytes")
	_, err = (Limits{Size: 100}).ParseDocument("big.json", []byte(`{"a": "`+strings.Repeat("x", 100)+`"}`))
	limitErr(t, err, LimitSize, "big.json: the file is larger than the limit of 100 bytes")

	// A regular file is refused from its size before it is read.
	path := filepath.Join(t.TempDir(), "huge.lock")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(1 << 30); err != nil {
		t.Skipf("no sparse file here: %v", err)
	}
	f.Close()
	_, err = (Limits{Size: 1 << 20}).ReadDocument(path)
	limitErr(t, err, LimitSize, "huge.lock: the file is larger than the limit of 1 MiB")
}

func TestDocumentValues(t *testing.T) {
	for _, c := range []struct {
		name, src, want string
		format          Format
	}{
		{"c.yaml", "a: &x {b: [1, 0x10, yes, ~]}\nc: *x\nd:\n  <<: *x\n  e: 2\n", `{"a":{"b":[1,16,"yes",null]},"c":{"b":[1,16,"yes",null]},"d":{"b":[1,16,"yes",null],"e":2}}`, YAML},
		{"c.json", `{"a": [1, 2.50, "x"]}`, `{"a": [1, 2.50, "x"]}`, JSON},
		{"mcplint.lock", " \n{\"version\": 1}\n", `{"version": 1}`, JSON},
		{".mcplint.yml", "# nothing\n", `null`, YAML},
		{"empty.json", "", `null`, JSON},
		{"noext", "select: [mcp]\n", `{"select":["mcp"]}`, YAML},
	} {
		d, err := DefaultLimits.ParseDocument(c.name, []byte(c.src))
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got := string(d.JSON()); got != c.want || d.Format != c.format {
			t.Errorf("%s: %s %s, want %s %s", c.name, d.Format, got, c.format, c.want)
		}
	}
	for _, c := range []struct{ name, src, want string }{
		{"two.yaml", "a: 1\n---\nb: 2\n", "two.yaml:3:1: invalid YAML: a second document; the file holds one"},
		{"two.json", "{}\n{}", "two.json:2:1: data after the JSON value; the file holds one value"},
		{"dup.json", `{"a": 1, "a": 2}`, `dup.json:1:10: invalid JSON: duplicate key "a"`},
		{"dup.yaml", "a: 1\na: 2\n", `dup.yaml:2:1: invalid YAML: duplicate key "a"`},
		{"tag.yaml", "a: !!binary aGk=\n", "tag.yaml:1:4: invalid YAML: tag !!binary is not supported"},
		{"bad.json", `{"a": }`, "bad.json:1:7: invalid JSON"},
		{"lock", "a: 1\n", "lock:1:1: invalid JSON"},
	} {
		var formats []Format
		if c.name == "lock" {
			formats = []Format{JSON}
		}
		_, err := DefaultLimits.ParseDocument(c.name, []byte(c.src), formats...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// TestDocumentLocate: a pointer is placed at the member's key, at an
// element, or at the deepest existing ancestor.
func TestDocumentLocate(t *testing.T) {
	yamlSrc := "select: [mcp]\nservers:\n  fs:\n    command: npx\n    args:\n      - -y\n      - pkg\nx: &a {k: 1}\ny: *a\n"
	jsonSrc := "{\n  \"select\": [\"mcp\"],\n  \"servers\": {\"fs\": {\"command\": \"npx\", \"args\": [\"-y\", \"pkg\"]}},\n  \"a/b\": 1\n}\n"
	for _, c := range []struct {
		name, src, ptr string
		line, col      int
	}{
		{"c.yaml", yamlSrc, "", 1, 1},
		{"c.yaml", yamlSrc, "/servers/fs/command", 4, 5},
		{"c.yaml", yamlSrc, "/servers/fs/args/1", 7, 9},
		{"c.yaml", yamlSrc, "/servers/fs/missing", 3, 3},
		{"c.yaml", yamlSrc, "/y/k", 8, 8}, // through the alias, to its anchor
		{"c.json", jsonSrc, "/servers/fs/args/1", 3, 55},
		{"c.json", jsonSrc, "/servers/fs", 3, 15},
		{"c.json", jsonSrc, "/a~1b", 4, 3},
		{"c.json", jsonSrc, "/nothing/here", 1, 1},
	} {
		d, err := DefaultLimits.ParseDocument(c.name, []byte(c.src))
		if err != nil {
			t.Fatal(err)
		}
		if p := d.Locate(c.ptr); p.Line != c.line || p.Column != c.col {
			t.Errorf("%s %q at %d:%d, want %d:%d", c.name, c.ptr, p.Line, p.Column, c.line, c.col)
		}
	}
}
