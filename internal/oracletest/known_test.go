package oracletest

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpfit/mcplint/internal/testenv"
)

// knownIssue excuses one kind of violation in one kind of output: a
// disagreement between a checker and mcplint's conversions or fixes that
// is known and reported, with the reason it is excused. Each entry is
// meant to be removed once mcplint and the checker agree.
type knownIssue struct {
	where  string // substring of the output's place: "(openai --strict", "fix --select [gemini]"
	what   string // substring of the violation
	reason string
}

// Reasons shared by several entries.
const (
	strictFormats = "strict mode supports nine string formats (Structured Outputs guide; " +
		"\"'uri' is not a valid format\", can1357/oh-my-pi#206); convert --strict and the " +
		"openai-strict pack keep the others. Reported."
	strictUndocumented = "a keyword or reference form OpenAI's guide does not document for strict mode " +
		"(neither supported nor refused); mcplint keeps it, the checker, written from the " +
		"documented list, refuses it. Reported for a decision."
	unknownKeyword = "a keyword of no JSON Schema dialect, which convert passes on and Ajv strict " +
		"refuses; mcplint has no rule for unknown keywords (see ajvAllowances). Reported."
	unknownFormat = "a \"format\" no JSON Schema dialect defines (Notion's \"json\"): an annotation in " +
		"2020-12, which validators ignore; Ajv strict refuses it, no client does. mcplint has no rule " +
		"for it. Reported."
)

var knownIssues = []knownIssue{
	// convert --to openai --strict (both APIs).
	{"--strict", `format "`, strictFormats},
	{"--strict", `keyword "$schema"`, strictUndocumented},
	{"--strict", `keyword "$anchor"`, strictUndocumented},
	{"--strict", `keyword "$id"`, strictUndocumented},
	{"--strict", `keyword "contentEncoding"`, strictUndocumented},
	{"--strict", `keyword "$comment"`, strictUndocumented},
	{"--strict", `keyword "id"`, strictUndocumented},
	{"--strict", `keyword "definitions"`, strictUndocumented},
	{"--strict", `keyword "examples"`, strictUndocumented},
	{"--strict", `does not name a definition of the root's $defs`, strictUndocumented},
	{"--strict", "not a boolean", strictUndocumented},

	// fix --select openai,openai-strict --unsafe-fixes.
	{"openai-strict]", `format "`, strictFormats},
	{"openai-strict]", `keyword "$schema"`, strictUndocumented},
	{"openai-strict]", `keyword "$id"`, strictUndocumented},
	{"openai-strict]", `keyword "$anchor"`, strictUndocumented},
	{"openai-strict]", `keyword "$comment"`, strictUndocumented},
	{"openai-strict]", `keyword "definitions"`, strictUndocumented},
	{"openai-strict]", `keyword "examples"`, strictUndocumented},
	{"openai-strict]", `keyword "id"`, strictUndocumented},
	{"openai-strict]", `keyword "contentEncoding"`, strictUndocumented},
	{"openai-strict]", `does not name a definition of the root's $defs`, strictUndocumented},
	{"openai-strict]", "not a boolean", strictUndocumented},
	{"openai-strict] of rules/testdata/cases/required-in-properties/declared-elsewhere/", `"required" lists "whatever"`,
		"the root's allOf refers outside the document, where the name may be declared: mcplint reports the allOf " +
			"(openai-root-object) and, like required-in-properties, stays quiet on the name"},

	// Ajv on converted schemas (the source tools are valid MCP).
	{"", `unknown format "json" ignored`, unknownFormat},
	{"", `Ajv: strict mode: unknown keyword: "enumDescriptions"`, unknownKeyword},
	{"", `Ajv: strict mode: unknown keyword: "$dynamicRef"`, unknownKeyword},

	// convert --to gemini and fix --select gemini.
}

// knownUsed counts the violations each entry excused, for TestMain.
var knownUsed = make([]int, len(knownIssues))

func known(where, violation string) bool {
	for i, k := range knownIssues {
		if strings.Contains(where, k.where) && strings.Contains(violation, k.what) && k.reason != "" {
			knownUsed[i]++
			return true
		}
	}
	return false
}

// TestMain fails a full run (no -run) in which an entry of knownIssues,
// sdkAllowances or ajvAllowances excused nothing: it is stale, and a
// stale excuse would hide the next disagreement of its kind. Without the
// oracles (the tests skipped) nothing was judged, so nothing is stale.
func TestMain(m *testing.M) {
	code := m.Run()
	if code == 0 && flag.Lookup("test.run").Value.String() == "" && oraclesInstalled() {
		for i, k := range knownIssues {
			if knownUsed[i] == 0 {
				fmt.Fprintf(os.Stderr, "knownIssues entry {%q, %q} excused nothing: remove it\n", k.where, k.what)
				code = 1
			}
		}
		for _, list := range [][]allowance{sdkAllowances, ajvAllowances} {
			for i := range list {
				if list[i].used == 0 {
					fmt.Fprintf(os.Stderr, "allowance for %s %s excused nothing: remove it\n", list[i].manifest, list[i].tool)
					code = 1
				}
			}
		}
	}
	os.Exit(code)
}

func oraclesInstalled() bool {
	wd, err := os.Getwd()
	return err == nil && testenv.NPMInstalled(filepath.Join(wd, "..", ".."), "testdata/oracles") == nil
}
