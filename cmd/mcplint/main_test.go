package main

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/rules"
)

// naming selects the naming rules, whose behaviour the tests rely on; other
// rules come and go, so no test runs the default selection and compares.
const naming = "--select=tool-name-valid,tool-name-unique,description-present"

// Test rules, for what no catalogue rule offers in a stable way: a safe fix,
// an unsafe fix and options. They are in the "test" pack, which is off by
// default.
var (
	testSchemaType = &lint.Rule{
		ID: "test-schema-type", Packs: []string{"test"}, Severity: lint.Error, Fix: lint.SafeFix,
		Summary: "inputSchema has a type",
		Doc:     "Test rule.",
		Options: map[string]any{"type": "object", "enabled": true},
		Check: func(p *lint.Pass) {
			s, ok := p.Value["inputSchema"].(map[string]any)
			if !ok || p.Option("enabled") != true {
				return
			}
			if _, has := s["type"]; has {
				return
			}
			typ, _ := p.Option("type").(string)
			p.ReportFix("/inputSchema", &lint.Fix{
				Message: "add \"type\"", Safe: true,
				Edits: []manifest.Edit{{Op: manifest.Add, Pointer: "/inputSchema/type", Value: typ}},
			}, "inputSchema has no \"type\"")
		},
	}
	testTrimDescription = &lint.Rule{
		ID: "test-trim-description", Packs: []string{"test"}, Severity: lint.Warning, Fix: lint.UnsafeFix,
		Summary: "descriptions have no trailing space",
		Check: func(p *lint.Pass) {
			d, ok := p.Value["description"].(string)
			if !ok || strings.TrimSpace(d) == d {
				return
			}
			p.ReportFix("/description", &lint.Fix{
				Message: "trim it",
				Edits:   []manifest.Edit{{Op: manifest.Replace, Pointer: "/description", Value: strings.TrimSpace(d)}},
			}, "description ends with a space")
		},
	}
)

// testTitleCase returns a rule that fixes a title into upper or lower case:
// the two undo each other's fixes (pack "test-cycle").
func testTitleCase(id string, to func(string) string) *lint.Rule {
	return &lint.Rule{
		ID: id, Packs: []string{"test-cycle"}, Severity: lint.Info, Fix: lint.SafeFix,
		Summary: "titles are in one case",
		Check: func(p *lint.Pass) {
			if t, ok := p.Value["title"].(string); ok && to(t) != t {
				p.ReportFix("/title", &lint.Fix{
					Message: "change case", Safe: true,
					Edits: []manifest.Edit{{Op: manifest.Replace, Pointer: "/title", Value: to(t)}},
				}, "title in the wrong case")
			}
		},
	}
}

var (
	testTitleUpper = testTitleCase("test-title-upper", strings.ToUpper)
	testTitleLower = testTitleCase("test-title-lower", strings.ToLower)
)

func catalogue() []*lint.Rule {
	return append(slices.Clone(rules.All), testSchemaType, testTrimDescription, testTitleUpper, testTitleLower)
}

type runOpts struct {
	stdin string
	// stdinTTY makes standard input a terminal.
	stdinTTY bool
	// tty makes both outputs terminals.
	tty bool
	env map[string]string
}

type result struct {
	code           int
	stdout, stderr string
}

// mcplint runs the command in-process, as main does, with the test catalogue.
func mcplint(t *testing.T, o runOpts, args ...string) result {
	t.Helper()
	var out, errOut bytes.Buffer
	e := &env{
		stdin: strings.NewReader(o.stdin), stdout: &out, stderr: &errOut,
		stdinTTY: o.stdinTTY, stdoutTTY: o.tty, stderrTTY: o.tty,
		getenv:    func(k string) string { return o.env[k] },
		catalogue: catalogue(),
	}
	code := e.run(context.Background(), append([]string{"mcplint"}, args...))
	return result{code, out.String(), errOut.String()}
}

func (r result) want(t *testing.T, code int) {
	t.Helper()
	if r.code != code {
		t.Fatalf("exit status %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, code, r.stdout, r.stderr)
	}
}

// TestRun goes through run, as main does, with the real catalogue.
func TestRun(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run(context.Background(), []string{"mcplint", "lint", "--select=tool-name-valid", "testdata/clean.json"}, strings.NewReader(""), &out, &errOut)
	if code != 0 || out.String() != "context: 1 tool, about 43 tokens of tool definitions (estimated)\n0 errors, 0 warnings, 0 infos in 1 file\n" || errOut.Len() != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out.String(), errOut.String())
	}
}

func TestNoCommandShowsHelp(t *testing.T) {
	r := mcplint(t, runOpts{})
	r.want(t, 0)
	for _, s := range []string{"USAGE:", "lint", "fix", "rules", "completion"} {
		if !strings.Contains(r.stdout, s) {
			t.Errorf("help lacks %q:\n%s", s, r.stdout)
		}
	}
}

func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"help", "lint"}, {"lint", "--help"}, {"lint", "-h"}} {
		r := mcplint(t, runOpts{}, args...)
		r.want(t, 0)
		if !strings.Contains(r.stdout, "mcplint lint - report problems") || !strings.Contains(r.stdout, "--fail-on SEVERITY") {
			t.Errorf("%v:\n%s", args, r.stdout)
		}
	}
}

func TestUsageErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"nope"}, "mcplint: unknown command \"nope\"; want lint, fix, rules, breaking, check, lock, init, schema, convert, proxy, mcp or completion ('mcplint --help' says more)\n"},
		{[]string{"lnt", "x.json"}, "mcplint: unknown command \"lnt\"; did you mean \"lint\"?\n"},
		{[]string{"completion", "tcsh"}, "mcplint: unknown shell \"tcsh\"; want bash, zsh, fish or pwsh\n"},
		{[]string{"lint", "--select", "securty", "testdata/clean.json"}, `unknown rule or pack "securty"; did you mean "security"?`},
		{[]string{"lint", "--extend-select", "tool-name-vaild", "testdata/clean.json"}, `unknown rule or pack "tool-name-vaild"; did you mean "tool-name-valid"?`},
		{[]string{"fix", "--ignore", "robst", "testdata/clean.json"}, `unknown rule or pack "robst"; did you mean "robust"?`},
		{[]string{"lint", "--bogus", "testdata/clean.json"}, "mcplint: unknown flag --bogus; 'mcplint lint --help' lists the flags\n"},
		{[]string{"fix", "-bogus"}, "mcplint: unknown flag --bogus; 'mcplint fix --help' lists the flags\n"},
		{[]string{"lint", "--colr=always", "testdata/clean.json"}, "mcplint: unknown flag --colr; did you mean --color?\n"},
		{[]string{"lint", "--timeout", "5", "testdata/clean.json"}, "mcplint: unknown flag --timeout for mcplint lint; it is a flag of mcplint breaking, mcplint check, mcplint lock and mcplint mcp ('mcplint lint --help' lists the flags of this one)\n"},
		{[]string{"check", "--timeout", "5", "--", "x"}, "mcplint: --timeout: invalid value \"5\"; give a duration with its unit, such as 30s, 2m or 1m30s\n"},
		{[]string{"lint", "--format"}, "mcplint: --format needs a value; 'mcplint lint --help' says what --format takes\n"},
		{[]string{"lint", "--quiet=sometimes"}, "mcplint: --quiet: invalid value \"sometimes\"; give true or false, or --quiet alone\n"},
		{[]string{"lint", "--format", "xml", "testdata/clean.json"}, "mcplint: --format: unknown format \"xml\"; want text, json, sarif, github, gitlab, junit, checkstyle or matrix, each alone or as FORMAT=PATH\n"},
		{[]string{"lint", "--format", "sarf", "testdata/clean.json"}, "mcplint: --format: unknown format \"sarf\"; did you mean \"sarif\"?\n"},
		{[]string{"lint", "--fail-on", "sometimes", "testdata/clean.json"}, "mcplint: --fail-on: unknown severity \"sometimes\"; want error, warning, info or never\n"},
		{[]string{"lint", "--fail-on", "eror", "testdata/clean.json"}, "mcplint: --fail-on: unknown severity \"eror\"; did you mean \"error\"?\n"},
		{[]string{"lint", "--color", "maybe", "testdata/clean.json"}, "mcplint: --color: unknown colour mode \"maybe\"; want auto, always or never\n"},
		{[]string{"lint", "--protocol", "2023-01-01", "testdata/clean.json"}, "unknown MCP protocol version \"2023-01-01\""},
		{[]string{"lint", "--select", "no-such-rule", "testdata/clean.json"}, "unknown rule or pack \"no-such-rule\""},
		{[]string{"lint", "--ignore", "no-such-pack", "testdata/clean.json"}, "unknown rule or pack \"no-such-pack\""},
		{[]string{"lint", "-", "-"}, "standard input (-) is named 2 times"},
		{[]string{"rules", "no-such-rule"}, "mcplint: unknown rule \"no-such-rule\""},
		{[]string{"rules", "--format", "yaml"}, "unknown format \"yaml\""},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			r := mcplint(t, runOpts{}, c.args...)
			r.want(t, 2)
			if !strings.Contains(r.stderr, c.want) {
				t.Errorf("stderr %q does not contain %q", r.stderr, c.want)
			}
			if strings.Count(r.stderr, "mcplint: ") != 1 {
				t.Errorf("the error is not printed exactly once:\n%s", r.stderr)
			}
			if strings.Contains(r.stderr, "Incorrect Usage") || strings.Contains(r.stderr, "NAME:") {
				t.Errorf("usage errors print one line, not the help:\n%s", r.stderr)
			}
		})
	}
}

func TestVersion(t *testing.T) {
	for _, flag := range []string{"--version", "-v"} {
		r := mcplint(t, runOpts{}, flag)
		r.want(t, 0)
		if !strings.HasPrefix(r.stdout, "mcplint version ") || !strings.HasSuffix(r.stdout, "\n") {
			t.Errorf("%s printed %q", flag, r.stdout)
		}
	}
}

func TestCompletion(t *testing.T) {
	for _, shell := range []string{"bash", "zsh", "fish"} {
		r := mcplint(t, runOpts{}, "completion", shell)
		r.want(t, 0)
		if !strings.Contains(r.stdout, "mcplint") {
			t.Errorf("%s completion script does not name mcplint:\n%s", shell, r.stdout)
		}
	}
	// What the scripts call: the completions of the command line so far.
	// (At the root, urfave/cli reads os.Args, the test binary's, so only a
	// subcommand's completions can be checked in-process.)
	r := mcplint(t, runOpts{}, "lint", "--sel", "--generate-shell-completion")
	r.want(t, 0)
	if !strings.Contains(r.stdout, "--select") {
		t.Errorf("flag completions lack --select:\n%s", r.stdout)
	}
}

func TestChecksSchemas(t *testing.T) {
	for args, want := range map[string]bool{
		"lint m.json":              true,
		"--no-color fix -w m.json": true,
		"check -- server":          true,
		"convert --to openai lint": false,
		"--version":                false,
		"rules lint":               false,
		"":                         false,
	} {
		if got := checksSchemas(strings.Fields(args)); got != want {
			t.Errorf("checksSchemas(%q) = %v, want %v", args, got, want)
		}
	}
}
