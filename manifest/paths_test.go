package manifest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpfit/mcplint/internal/benchgen"
)

// TestToolPathBytes: a long key above many values is refused as the
// source is read, in JSON, and when a YAML tool is decoded, with one error
// at the tool; the same key above a few values, and a large ordinary tool,
// load.
func TestToolPathBytes(t *testing.T) {
	bomb := benchgen.LongKey(1<<20, 10000) // 1.1 MB, ten gigabytes of pointers
	_, err := Load("bomb.json", bomb)
	if err == nil || !strings.Contains(err.Error(), "bomb.json:1:") || !strings.Contains(err.Error(), "JSON pointers total more than 128 MiB") {
		t.Errorf("JSON: err %v", err)
	}
	// JSON is YAML, loaded as YAML through its name. The YAML parser
	// spells each node's path itself: the bomb is refused before it is
	// parsed; a smaller one, within what the parser may spell, when its
	// tool is decoded.
	if _, err := Load("bomb.yaml", bomb); err == nil || !strings.Contains(err.Error(), "bomb.yaml:1:") || !strings.Contains(err.Error(), "paths total more than 256 MiB") {
		t.Errorf("YAML, parsed: err %v", err)
	}
	m, err := Load("bomb.yaml", benchgen.LongKey(64<<10, 2100))
	if err != nil {
		t.Fatalf("YAML: %v", err)
	}
	if _, err := m.Tools[0].Value(); err == nil || !strings.Contains(err.Error(), "JSON pointers total more than") {
		t.Errorf("YAML: err %v", err)
	}
	for name, src := range map[string][]byte{
		"a long key above a few values": benchgen.LongKey(1<<20, 10),
		"many properties":               benchgen.LongKey(8, 200000),
	} {
		if _, err := Load("ok.json", src); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestJSONPathBytesCounts: the scan of the source adds up what the walk
// of the decoded value does, on every JSON file of the test data (whose
// keys have no escapes that would count more).
func TestJSONPathBytesCounts(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "rules", "testdata", "cases", "*", "*", "input.json"))
	if len(files) < 50 {
		t.Fatalf("only %d case inputs", len(files))
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(src), `\`) {
			continue
		}
		var v any
		if json.Unmarshal(src, &v) != nil {
			continue
		}
		got, _, over := jsonPathBytes(src, 1<<62)
		left := int64(1 << 62)
		valuePathBytes(v, 0, &left)
		if want := 1<<62 - left; over || got != want {
			t.Errorf("%s: the scan counts %d (over %v), the walk %d", f, got, over, want)
		}
	}
}

// FuzzJSONPathBytes: the scan never panics, whatever the bytes (the loader
// gives it valid JSON; a bound on a stranger's input must not be the
// thing that fails on it).
func FuzzJSONPathBytes(f *testing.F) {
	for _, s := range []string{`{"a":[1,{"b":"c"}]}`, `]]},,`, `"\`, `{"k":`, `[[[`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		jsonPathBytes(src, 1<<20)
	})
}
