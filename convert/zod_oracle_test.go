package convert

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpfit/mcplint/internal/testenv"
	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/schema"
)

// zodCase is one tool of the oracle corpus.
type zodCase struct {
	ID   string
	Tool Tool
}

// zodCorpus is every tool of convert/testdata/zod, of the rules' fixed
// outputs and of the example manifest.
func zodCorpus(t *testing.T) []zodCase {
	t.Helper()
	root := testenv.RepoRoot(t)
	var files []string
	for _, g := range []string{"convert/testdata/zod/*.json", "rules/testdata/cases/*/*/fixed.json", "testdata/example/manifest.json"} {
		m, err := filepath.Glob(filepath.Join(root, g))
		if err != nil || len(m) == 0 {
			t.Fatalf("no corpus files match %s (%v)", g, err)
		}
		files = append(files, m...)
	}
	var cases []zodCase
	for _, f := range files {
		m, err := manifest.ReadFile(f)
		if err != nil {
			t.Fatalf("read %s: %v", f, err)
		}
		rel, _ := filepath.Rel(root, f)
		for i := range m.Tools {
			tv, err := m.Tools[i].Value()
			if err != nil {
				t.Fatalf("%s: tool %d: %v", rel, i, err)
			}
			v, ok := tv.(map[string]any)
			if !ok {
				continue
			}
			in, ok := v["inputSchema"].(map[string]any)
			if !ok {
				continue
			}
			name, _ := v["name"].(string)
			out, _ := v["outputSchema"].(map[string]any)
			cases = append(cases, zodCase{
				ID:   fmt.Sprintf("%s#%d(%s)", rel, i, name),
				Tool: Tool{Name: name, InputSchema: in, OutputSchema: out, Index: i},
			})
		}
	}
	return cases
}

// TestZodTypeChecks compiles the module of every corpus tool, for Zod 3
// and Zod 4, with tsc in strict mode: one run per major.
func TestZodTypeChecks(t *testing.T) {
	oracles := testenv.Oracles(t)
	cases := zodCorpus(t)
	for _, major := range []int{3, 4} {
		dir := t.TempDir()
		var files []string
		for i, c := range cases {
			code, _ := ToZod([]Tool{c.Tool}, ZodOptions{Major: major})
			name := fmt.Sprintf("case%03d.ts", i)
			if err := os.WriteFile(filepath.Join(dir, name), code, 0o644); err != nil {
				t.Fatal(err)
			}
			files = append(files, name)
		}
		// All corpus tools in one module too, for names unique across tools.
		var all []Tool
		for _, c := range cases {
			all = append(all, c.Tool)
		}
		code, _ := ToZod(all, ZodOptions{Major: major})
		if err := os.WriteFile(filepath.Join(dir, "all.ts"), code, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, "all.ts")
		pkg := "zod"
		if major == 3 {
			pkg = "zod3"
		}
		tsconfig := map[string]any{
			"compilerOptions": map[string]any{
				"strict": true, "noEmit": true, "target": "ES2022", "module": "ESNext",
				"moduleResolution": "Bundler", "skipLibCheck": true, "types": []string{},
				"baseUrl": ".",
				"paths":   map[string][]string{"zod": {filepath.Join(oracles, "node_modules", pkg, "index.d.cts")}},
			},
			"files": files,
		}
		b, _ := json.Marshal(tsconfig)
		if err := os.WriteFile(filepath.Join(dir, "tsconfig.json"), b, 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("node", filepath.Join(oracles, "node_modules", "typescript", "bin", "tsc"), "-p", dir)
		out, err := cmd.CombinedOutput()
		if err != nil {
			msg := string(out)
			// Show the failing lines with their source, for the first errors.
			var shown []string
			for _, line := range strings.Split(msg, "\n") {
				if len(shown) > 30 {
					break
				}
				shown = append(shown, line)
				if f, rest, ok := strings.Cut(line, "("); ok && strings.HasPrefix(f, "case") {
					var ln int
					fmt.Sscanf(rest, "%d", &ln)
					src, _ := os.ReadFile(filepath.Join(dir, f))
					if lines := strings.Split(string(src), "\n"); ln > 0 && ln <= len(lines) {
						shown = append(shown, "    > "+lines[ln-1])
					}
				}
			}
			idx := map[string]string{}
			for i, c := range cases {
				idx[fmt.Sprintf("case%03d.ts", i)] = c.ID
			}
			t.Errorf("zod %d: tsc failed: %v\n%s\n(cases: %v)", major, err, strings.Join(shown, "\n"), zodCaseNames(msg, idx))
		}
	}
}

func zodCaseNames(msg string, idx map[string]string) []string {
	seen := map[string]bool{}
	var out []string
	for _, line := range strings.Split(msg, "\n") {
		if f, _, ok := strings.Cut(line, "("); ok && idx[f] != "" && !seen[f] {
			seen[f] = true
			out = append(out, f+"="+idx[f])
		}
	}
	return out
}

type zodDiffCase struct {
	ID      string            `json:"id"`
	Schema  map[string]any    `json:"schema"`
	Modules map[string]string `json:"modules"`
	Samples []zodSample       `json:"samples"`
}

type zodDiffResult struct {
	Checked       int `json:"checked"`
	Ms            int `json:"ms"`
	Disagreements []struct {
		ID     string   `json:"id"`
		Major  int      `json:"major"`
		Sample int      `json:"sample"`
		Value  any      `json:"value"`
		Ptr    string   `json:"ptr"`
		Also   []string `json:"also"`
		Ajv    any      `json:"ajv"`
		Zod    any      `json:"zod"`
	} `json:"disagreements"`
	Errors []struct {
		ID    string `json:"id"`
		Major int    `json:"major"`
		Error string `json:"error"`
	} `json:"errors"`
}

// TestZodDifferential validates sample values of every corpus schema with
// Ajv and with the generated Zod (both majors) in one node process, and
// fails on every disagreement the emitter did not warn about. A warning
// excuses a disagreement when its pointer and the sample's pointer (the
// subschema whose candidate value the sample carries, or that of a value
// it was built around) are the same or one contains the other; the
// warning that a root accepts non-objects excuses only non-object values.
//
// The kinds of warning that excuse disagreements on the corpus: formats
// Zod does not check or checks by its own rules, $dynamicRef and
// $recursiveRef, unevaluatedProperties, keywords beside $ref in draft-07
// (which Ajv applies against the draft), integers beyond 2^53 in Zod 4,
// and roots that accept non-objects. The test logs the count of each.
// Schemas Ajv cannot compile have no verdict: the corpus holds invalid
// schemas on purpose (mcplint's own compiler refuses them too), and Ajv
// also refuses a few valid ones (nullable without type, a draft-04
// exclusiveMinimum, cycles of bare references); they are logged.
func TestZodDifferential(t *testing.T) {
	testenv.Oracles(t)
	cases := zodCorpus(t)
	var in struct {
		Cases []zodDiffCase `json:"cases"`
	}
	warns := map[string][]Warning{}
	byID := map[string]map[string]any{}
	// Output schemas are compared as tools of their own.
	var compared []zodCase
	for _, c := range cases {
		compared = append(compared, zodCase{ID: c.ID, Tool: Tool{Name: c.Tool.Name, InputSchema: c.Tool.InputSchema, Index: c.Tool.Index}})
		if c.Tool.OutputSchema != nil {
			compared = append(compared, zodCase{ID: c.ID + "/outputSchema", Tool: Tool{Name: c.Tool.Name, InputSchema: c.Tool.OutputSchema, Index: c.Tool.Index}})
		}
	}
	for _, c := range compared {
		byID[c.ID] = c.Tool.InputSchema
		dc := zodDiffCase{ID: c.ID, Schema: c.Tool.InputSchema, Modules: map[string]string{}}
		for _, major := range []int{3, 4} {
			code, w := ToZod([]Tool{c.Tool}, ZodOptions{Major: major})
			dc.Modules[fmt.Sprint(major)] = string(code)
			warns[fmt.Sprintf("%s/%d", c.ID, major)] = w
		}
		dc.Samples = zodSamples(c.Tool.InputSchema)
		in.Cases = append(in.Cases, dc)
	}
	stdin, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var res zodDiffResult
	if err := json.Unmarshal(testenv.Node(t, "zod-diff.mjs", stdin), &res); err != nil {
		t.Fatal(err)
	}
	invalid, refused := 0, 0
	for _, e := range res.Errors {
		// Ajv refuses some corpus schemas: the rules' cases include invalid
		// ones on purpose. They have no verdict to compare with as long as
		// mcplint's own compiler refuses them too.
		if strings.HasPrefix(e.Error, "ajv: ") {
			if _, err := schema.Compile(byID[e.ID]); err != nil {
				if strings.HasPrefix(e.ID, "convert/") && !strings.Contains(e.ID, "(invalid_") {
					t.Errorf("corpus schema %s is invalid, so it is not compared: %v", e.ID, err)
				}
				invalid++
				continue
			}
			// Ajv also refuses some valid schemas: "nullable" without
			// "type", a draft-04 boolean exclusiveMinimum, a cycle of
			// bare $refs (stack overflow). No verdict for those either.
			t.Logf("no Ajv verdict for %s: %s", e.ID, e.Error)
			refused++
			continue
		}
		t.Errorf("%s (zod %d): %s", e.ID, e.Major, e.Error)
	}
	excused, failed := 0, 0
	kinds := map[string]int{}
	for _, d := range res.Disagreements {
		if w, ok := zodExcuse(warns[fmt.Sprintf("%s/%d", d.ID, d.Major)], d.Value, append([]string{d.Ptr}, d.Also...)); ok {
			excused++
			kinds[zodWarningKind(w.Message)]++
			continue
		}
		failed++
		if failed <= 40 {
			v, _ := json.Marshal(d.Value)
			t.Errorf("%s (zod %d) at %q: %s: ajv %v, zod %v", d.ID, d.Major, d.Ptr, v, d.Ajv, d.Zod)
		}
	}
	t.Logf("node: %d ms", res.Ms)
	for _, k := range slices.Sorted(maps.Keys(zodAnyMap(kinds))) {
		t.Logf("excused %4d × %s", kinds[k], k)
	}
	t.Logf("%d schemas (%d invalid, %d refused by Ajv), %d checks, %d disagreements excused by warnings, %d not", len(compared), invalid, refused, res.Checked, excused, failed)
}

// zodExcuse finds the warning that accounts for a disagreement. The
// warning that the root accepts more than objects accounts only for values
// that are not objects.
func zodExcuse(ws []Warning, value any, ptrs []string) (Warning, bool) {
	for _, w := range ws {
		if _, isObject := value.(map[string]any); w.Message == zodRootNotObject && isObject {
			continue
		}
		p := strings.TrimPrefix(w.Pointer, "/inputSchema")
		for _, ptr := range ptrs {
			if p == ptr || strings.HasPrefix(p, ptr+"/") || strings.HasPrefix(ptr, p+"/") {
				return w, true
			}
		}
	}
	return Warning{}, false
}

// zodWarningKind is a warning's message without its quoted specifics, to
// count the excused disagreements by kind.
func zodWarningKind(msg string) string {
	var b strings.Builder
	quoted := false
	for _, r := range msg {
		if r == '"' {
			quoted = !quoted
			continue
		}
		if !quoted {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func zodAnyMap(m map[string]int) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
