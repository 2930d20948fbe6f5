package oracletest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpfit/mcplint/consumer"
	"github.com/mcpfit/mcplint/convert"
	"github.com/mcpfit/mcplint/internal/realworld"
	"github.com/mcpfit/mcplint/internal/testenv"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/rules"
)

// corpusConversion is one target of the real-world corpus test, with the
// consumers whose rules judge its output.
type corpusConversion struct {
	conversion
	consumers []consumer.ID
}

var corpusConversions = []corpusConversion{
	{conversion{"mcp", "mcp", convert.Options{}}, []consumer.ID{consumer.MCPSpec, consumer.TSSDK}},
	{conversion{"openai", "openai", convert.Options{}}, []consumer.ID{consumer.OpenAIChat}},
	{conversion{"openai --api responses", "openai", convert.Options{API: "responses"}}, []consumer.ID{consumer.OpenAIResponses}},
	{conversion{"openai --strict", "openai", convert.Options{Strict: true}}, []consumer.ID{consumer.OpenAIChat, consumer.OpenAIStrict}},
	{conversion{"anthropic", "anthropic", convert.Options{}}, []consumer.ID{consumer.Anthropic}},
	{conversion{"gemini", "gemini", convert.Options{}}, []consumer.ID{consumer.GeminiParameters}},
	{conversion{"gemini --gemini-json-schema", "gemini", convert.Options{GeminiJSONSchema: true}}, []consumer.ID{consumer.GeminiJSONSchema}},
	{conversion{"zod", "zod", convert.Options{}}, nil},
}

// corpusResult is one conversion of one real-world case.
type corpusResult struct {
	where    string
	conv     corpusConversion
	out      []byte
	warns    []convert.Warning
	refused  bool
	verdicts map[string]string // the case's, by consumer
}

// overRefusals excuse a refusal of a conversion whose consumers all accept
// the source, by case and conversion, each with its reason.
var overRefusals = map[string]string{}

// TestConvertCorpus converts every case of the real-world corpus
// (testdata/realworld/*/tools.json) to every target and holds convert to
// its promise: either it reports a refusal (mcplint convert exits 1), or
// the target accepts what it wrote. The judges are the provider checkers
// of this package (OpenAI strict mode, Gemini declarations, the root and
// name rules every OpenAI and Anthropic function must meet), the
// TypeScript SDK for MCP, and mcplint's own rules for each target's
// consumers, run here independently of convert. Zod has no judge: what it
// writes is TypeScript source, which convert's own oracle compiles. The
// other way round, a refusal of a source that the case records every
// consumer of the target to accept is a failure too.
func TestConvertCorpus(t *testing.T) {
	cases, err := realworld.Corpus(filepath.Join(testenv.RepoRoot(t), "testdata", "realworld"))
	if err != nil || len(cases) < 40 {
		t.Fatalf("%d real-world cases found, want at least 40 (%v)", len(cases), err)
	}
	var results []corpusResult
	inputErrors := 0
	for _, cc := range cases {
		rel := "testdata/realworld/" + cc.Name + "/tools.json"
		tools, err := convert.FromManifest(cc.Manifest)
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		if len(cc.File.Verdicts) == 0 {
			t.Fatalf("%s: no verdicts", rel)
		}
		for _, c := range corpusConversions {
			where := fmt.Sprintf("%s (%s", rel, c.name)
			out, warns, err := convert.To(c.target, tools, c.opts)
			if err != nil {
				// A tool whose schema admits no object: exit 2, nothing
				// written, which is no broken promise.
				inputErrors++
				t.Logf("%s): %v", where, err)
				continue
			}
			results = append(results, corpusResult{where: where, conv: c, out: out, warns: warns, refused: refusedAny(warns), verdicts: cc.File.Verdicts})
		}
	}
	judged := map[string][]string{}
	for _, r := range results {
		if !r.refused {
			judged[r.where] = judgeCorpus(t, r)
		}
	}
	for w, vs := range judgeMCPWithSDK(t, results) {
		judged[w] = append(judged[w], vs...)
	}
	refusals := 0
	used := map[string]bool{}
	for _, r := range results {
		if r.refused {
			refusals++
			// A source every consumer of the target accepts (by the
			// case's recorded verdicts) owes no refusal: one is
			// mcplint's mistake.
			accepted := len(r.conv.consumers) > 0
			for _, c := range r.conv.consumers {
				accepted = accepted && r.verdicts[string(c)] == "accept"
			}
			if accepted && !overRefused(r.where, used) {
				t.Errorf("%s): refused, but the case records that %v accept the source: %v", r.where, r.conv.consumers, refusalLines(r.warns))
			}
			continue
		}
		for _, v := range judged[r.where] {
			if !known(r.where, v) {
				t.Errorf("%s): exit 0, but the target refuses the output: %s", r.where, v)
			}
		}
	}
	for k := range overRefusals {
		if !used[k] {
			t.Errorf("overRefusals entry %q excused nothing: remove it", k)
		}
	}
	t.Logf("%d conversions (%d cases × %d targets); %d refused (exit 1); %d input errors (exit 2)",
		len(results)+inputErrors, len(cases), len(corpusConversions), refusals, inputErrors)
	t.Logf("warnings by kind: %s", warningKinds(results))
}

// overRefused reports whether overRefusals excuses the conversion at
// where, and marks the entry used.
func overRefused(where string, used map[string]bool) bool {
	for k := range overRefusals {
		if strings.HasSuffix(where, "/"+k) {
			used[k] = true
			return true
		}
	}
	return false
}

func refusalLines(ws []convert.Warning) []string {
	var out []string
	for _, w := range ws {
		if w.Refused {
			out = append(out, w.String())
		}
	}
	return out
}

func refusedAny(ws []convert.Warning) bool {
	return slices.ContainsFunc(ws, func(w convert.Warning) bool { return w.Refused })
}

// judgeCorpus lists what the target's judges refuse in one output.
func judgeCorpus(t *testing.T, r corpusResult) []string {
	t.Helper()
	if r.conv.target == "zod" {
		return nil
	}
	var out []string
	out = append(out, refusedByRules(t, r)...)
	if r.conv.target == "mcp" {
		return out // the SDK judges the whole list (judgeMCPWithSDK)
	}
	for i, e := range outputEntries(t, r) {
		ct := e
		at := fmt.Sprintf("tool %d %q", i, ct.name)
		var vs []string
		switch {
		case r.conv.target == "openai":
			if !openaiFunctionName.MatchString(ct.name) {
				vs = append(vs, "function name is not ^[a-zA-Z0-9_-]{1,64}$")
			}
			if r.conv.opts.Strict {
				vs = append(vs, checkOpenAIStrict(ct.schema)...)
			} else {
				vs = append(vs, checkRootObject(ct.schema, []string{"anyOf", "oneOf", "allOf", "enum", "const", "not"})...)
			}
		case r.conv.target == "anthropic":
			if !anthropicName.MatchString(ct.name) {
				vs = append(vs, "tool name is not ^[a-zA-Z0-9_-]{1,128}$")
			}
			vs = append(vs, checkRootObject(ct.schema, []string{"oneOf", "allOf", "anyOf"})...)
		case r.conv.target == "gemini":
			vs = append(vs, checkGeminiDeclaration(ct.entry)...)
		}
		for _, v := range vs {
			out = append(out, at+" "+v)
		}
	}
	return out
}

// outputEntries reads the tools of one output document.
func outputEntries(t *testing.T, r corpusResult) []convertedTool {
	t.Helper()
	var v map[string]any
	dec := json.NewDecoder(bytes.NewReader(r.out))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("%s): the output is not JSON: %v", r.where, err)
	}
	key := "tools"
	if r.conv.target == "gemini" {
		key = "functionDeclarations"
	}
	list, _ := v[key].([]any)
	var out []convertedTool
	for _, e := range list {
		entry, _ := e.(map[string]any)
		fields := entry
		if r.conv.target == "openai" && r.conv.opts.API != "responses" {
			fields, _ = entry["function"].(map[string]any)
		}
		ct := convertedTool{entry: entry}
		ct.name, _ = fields["name"].(string)
		switch {
		case r.conv.target == "openai":
			ct.schema = fields["parameters"]
		case r.conv.target == "anthropic":
			ct.schema = fields["input_schema"]
		}
		out = append(out, ct)
	}
	return out
}

// refusedByRules runs, on the output as a manifest, mcplint's rules that
// protect the conversion's consumers, and lists their errors and warnings
// that name one of those consumers.
func refusedByRules(t *testing.T, r corpusResult) []string {
	t.Helper()
	if len(r.conv.consumers) == 0 {
		return nil
	}
	var ids []string
	for _, rule := range rules.All {
		if slices.ContainsFunc(rule.Consumers, func(f consumer.Refusal) bool {
			return !f.Mangles && slices.Contains(r.conv.consumers, f.Consumer)
		}) {
			ids = append(ids, rule.ID)
		}
	}
	l, err := lint.New(rules.All, lint.Config{Select: ids})
	if err != nil {
		t.Fatal(err)
	}
	m, err := manifest.Load(r.where+")", r.out)
	if err != nil {
		t.Fatalf("%s): the output does not load: %v", r.where, err)
	}
	diags, err := l.Lint(m)
	if err != nil {
		t.Fatalf("%s): %v", r.where, err)
	}
	var out []string
	for _, d := range diags {
		if d.Severity < lint.Warning || !slices.ContainsFunc(d.Consumers, func(f consumer.Refusal) bool {
			return !f.Mangles && slices.Contains(r.conv.consumers, f.Consumer)
		}) {
			continue
		}
		out = append(out, fmt.Sprintf("%s %s: %s [%s]", d.Tool, d.Pointer, d.Message, d.Rule))
	}
	return out
}

// judgeMCPWithSDK parses every MCP output that convert did not refuse with
// the TypeScript SDK's ListToolsResultSchema, in one node process.
func judgeMCPWithSDK(t *testing.T, results []corpusResult) map[string][]string {
	t.Helper()
	type request struct {
		ID     string          `json:"id"`
		Result json.RawMessage `json:"result"`
	}
	var batch []request
	for _, r := range results {
		if r.conv.target == "mcp" && !r.refused {
			batch = append(batch, request{ID: r.where, Result: r.out})
		}
	}
	if len(batch) == 0 {
		return nil
	}
	var answer sdkAnswer
	runNode(t, "sdk-list-tools.mjs", batch, &answer)
	out := map[string][]string{}
	for _, a := range answer.Results {
		for _, is := range a.Issues {
			out[a.ID] = append(out[a.ID], fmt.Sprintf("TypeScript SDK: %s: %s", joinPath(is.Path), is.Message))
		}
	}
	return out
}

// warningKinds counts the warnings of every conversion by what they say,
// for the log: refusals, each kind of rewrite, summaries.
func warningKinds(results []corpusResult) string {
	kinds := map[string]int{}
	for _, r := range results {
		for _, w := range r.warns {
			kinds[warningKind(w)]++
		}
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(kinds)) {
		parts = append(parts, fmt.Sprintf("%s %d", k, kinds[k]))
	}
	return strings.Join(parts, ", ")
}

func warningKind(w convert.Warning) string {
	m := w.Message
	switch {
	case w.Refused:
		return "refusal"
	case len(w.Tools) > 0:
		return "summary"
	case strings.Contains(m, "renamed to"):
		return "rename"
	case strings.Contains(m, "characters cut"):
		return "description cut"
	case strings.Contains(m, "was required but never declared"):
		return "undeclared required name dropped"
	case strings.Contains(m, "strict mode does not support \"propertyNames\""):
		return "propertyNames dropped (strict)"
	case strings.Contains(m, "is left out"):
		return "left out for Gemini"
	}
	return "other loss"
}
