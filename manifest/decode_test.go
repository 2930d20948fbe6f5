package manifest

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpfit/mcplint/internal/benchgen"
	"github.com/mcpfit/mcplint/internal/testenv"
)

// TestDecoderAgrees checks the decoder of validated bytes against
// encoding/json (numbers kept as written) on every JSON tool of the test
// data and on generated manifests, escapes and odd spacing included.
func TestDecoderAgrees(t *testing.T) {
	sources := map[string][]byte{
		"generated":         benchgen.Manifest(200),
		"generated-compact": benchgen.Generate(benchgen.Options{Tools: 200, Seed: 5, Compact: true}),
		"escapes":           []byte("[{\"name\":\"a\\u00e9\\n\\\"q\\\"\\/\\ud83d\\ude00\", \"x\" : [ 1 , -2.5e+3 , true,false , null, {\"\":\"\"} ] ,\r\n\t\"inputSchema\":{\"type\":\"object\",\"enum\":[\"\\\\\",\"\\t\"]}}]"),
	}
	root := testenv.RepoRoot(t)
	for _, dir := range []string{"rules/testdata/cases", "testdata"} {
		_ = filepath.WalkDir(filepath.Join(root, dir), func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(path, ".json") {
				src, err := os.ReadFile(path)
				if err == nil {
					sources[path] = src
				}
			}
			return nil
		})
	}
	tools := 0
	for name, src := range sources {
		m, err := Load(name, src)
		if err != nil || m.Format != JSON {
			continue
		}
		for _, tool := range m.Tools {
			got, err := tool.Value()
			if err != nil {
				continue
			}
			dec := json.NewDecoder(bytes.NewReader(m.Src[tool.start:tool.end]))
			dec.UseNumber()
			var want any
			if err := dec.Decode(&want); err != nil {
				t.Fatalf("%s: tool %d: %v", name, tool.Index, err)
			}
			if diff := cmp.Diff(tool.present(want), got); diff != "" {
				t.Errorf("%s: tool %d (-encoding/json +decoder):\n%s", name, tool.Index, diff)
			}
			tools++
		}
	}
	if tools < 500 {
		t.Errorf("only %d tools compared", tools)
	}
}
