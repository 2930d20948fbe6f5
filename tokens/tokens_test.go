package tokens_test

import (
	"bytes"
	"encoding/json"
	"math"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpfit/mcplint/internal/testenv"
	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/tokens"
)

// realCounts counts each text with o200k_base (testdata/tokenizer).
func realCounts(t *testing.T, texts []string) []int {
	t.Helper()
	dir := testenv.NPM(t, "testdata/tokenizer")
	in, _ := json.Marshal(texts)
	cmd := exec.Command("node", filepath.Join(dir, "count.mjs"))
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("count.mjs: %v\n%s", err, stderr.String())
	}
	var counts []int
	if err := json.Unmarshal(out, &counts); err != nil || len(counts) != len(texts) {
		t.Fatalf("count.mjs: %v, %d counts for %d texts", err, len(counts), len(texts))
	}
	return counts
}

type server struct {
	name  string
	texts []string
}

func corpus(t *testing.T) []server {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(testenv.RepoRoot(t), "testdata", "realworld", "*", "tools.json"))
	if err != nil || len(paths) < 40 {
		t.Fatalf("the corpus: %v, %d cases", err, len(paths))
	}
	var out []server
	for _, p := range paths {
		m, err := manifest.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		s := server{name: filepath.Base(filepath.Dir(p))}
		for _, tool := range m.Tools {
			s.texts = append(s.texts, string(tokens.Definition(nil, tool)))
		}
		out = append(out, s)
	}
	return out
}

// TestEstimateAgainstTokenizer: on every server of the real-world corpus,
// the estimate of its tool definitions is within 15% of what OpenAI's
// o200k_base tokenizer counts, and within 3% over the whole corpus.
func TestEstimateAgainstTokenizer(t *testing.T) {
	servers := corpus(t)
	var all []string
	for _, s := range servers {
		all = append(all, s.texts...)
	}
	counts := realCounts(t, all)
	realTotal, estTotal, k := 0, 0, 0
	worst, worstName := 0.0, ""
	for _, s := range servers {
		real, est := 0, 0
		for _, text := range s.texts {
			real += counts[k]
			est += tokens.Estimate(text)
			k++
		}
		realTotal += real
		estTotal += est
		if real == 0 {
			continue
		}
		off := float64(est)/float64(real) - 1
		if math.Abs(off) > math.Abs(worst) {
			worst, worstName = off, s.name
		}
		if math.Abs(off) > 0.15 {
			t.Errorf("%s: estimated %d tokens, o200k_base counts %d (%+.1f%%)", s.name, est, real, off*100)
		}
	}
	off := float64(estTotal)/float64(realTotal) - 1
	t.Logf("%d servers, %d tools: estimated %d tokens, o200k_base counts %d (%+.1f%%); the farthest server %s (%+.1f%%)",
		len(servers), len(all), estTotal, realTotal, off*100, worstName, worst*100)
	if math.Abs(off) > 0.03 {
		t.Errorf("over the corpus: estimated %d, counted %d (%+.1f%%)", estTotal, realTotal, off*100)
	}
	if realTotal < 100000 {
		t.Errorf("the corpus holds only %d tokens of tool definitions: the test no longer reads it", realTotal)
	}
}

// TestEstimateText: texts other than tool definitions (prose, code,
// other scripts, long identifiers) stay near the real count too, so that
// the figures per piece are not the corpus's vocabulary alone.
func TestEstimateText(t *testing.T) {
	texts := []string{
		strings.Repeat("The quick brown fox jumps over the lazy dog. ", 20),
		"Searches the knowledge graph for entities whose names, types or observations match the query; returns at most `limit` results, most relevant first.",
		`{"type":"object","properties":{"repositoryOwnerLogin":{"type":"string","pattern":"^[a-zA-Z0-9-]{1,39}$"},"pullRequestNumber":{"type":"integer","minimum":1}},"required":["repositoryOwnerLogin"]}`,
		"func main() {\n\tfmt.Println(\"hello, world\")\n\tos.Exit(0)\n}\n",
		"ユーザーのプロジェクト一覧を返します。最近更新されたものから順に並べます。",
		"Возвращает список проектов пользователя, начиная с последних обновлённых.",
		"GET_ALL_REPOSITORY_COLLABORATORS_WITH_PERMISSIONS and HTTPServerConfig, XMLHttpRequest, v1.2.3-rc.4, 0xDEADBEEF",
	}
	counts := realCounts(t, texts)
	for i, text := range texts {
		est := tokens.Estimate(text)
		if off := float64(est)/float64(counts[i]) - 1; math.Abs(off) > 0.35 {
			t.Errorf("%.40q…: estimated %d, o200k_base counts %d (%+.0f%%)", text, est, counts[i], off*100)
		}
	}
}

// TestDefinition: the text measured is what a client sends, from a tool
// in any shape the manifest loader takes: the raw JSON read without
// decoding gives the same definition as the decoded value.
func TestDefinition(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"tools.json", `{"tools": [{"title": "T", "name": "a_b", "annotations": {"readOnlyHint": true},
		  "inputSchema": {"type": "object", "properties": {"q": {"type": "string", "description": "x < y & z"}}},
		  "description": "Find it.\nThen say \"so\".", "outputSchema": {"type": "object"}}]}`,
			`{"name":"a_b","description":"Find it.\nThen say \"so\".","input_schema":{"type":"object","properties":{"q":{"type":"string","description":"x < y & z"}}}}`},
		{"tools.yaml", "tools:\n  - name: a_b\n    description: Find it.\n    inputSchema:\n      type: object\n",
			`{"description":"Find it.","input_schema":{"type":"object"},"name":"a_b"}`},
		{"openai.json", `[{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}]`,
			`{"input_schema":{"type":"object"},"name":"f"}`},
		{"bare.json", `{"tools": [{"name": "n", "inputSchema": [1, 2.5e3, true, null, "s"]}]}`,
			`{"name":"n","input_schema":[1,2.5e3,true,null,"s"]}`},
	} {
		m, err := manifest.Load(c.name, []byte(c.src))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := string(tokens.Definition(nil, m.Tools[0])); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}

// TestEmpty: nothing costs nothing; every byte sequence is read to its end.
func TestEmpty(t *testing.T) {
	if n := tokens.Estimate(""); n != 0 {
		t.Errorf("Estimate(\"\") = %d", n)
	}
	for _, s := range []string{"\xff\xfe", " ", "\n\n \t", "a", "'s", "x'", "\u200b", "  \u00a0x", "٣٤٥٦", "ǅ"} {
		if n := tokens.Estimate(s); n < 1 || n > 2*len(s) {
			t.Errorf("Estimate(%q) = %d", s, n)
		}
	}
	if tokens.Manifest(nil) != 0 {
		t.Error("a nil manifest has tools")
	}
}
