package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mcpfit/mcplint/internal/testenv"
)

// The official MCP conformance suite (testdata/conformance) judges MCP
// clients: each client scenario starts a test server and runs a client
// command against it. mcplint check is such a client, and these are the
// scenarios it passes, each with the arguments it runs with; every other
// client scenario of the suite is in testdata/conformance/expected-
// failures.yaml with the reason, or is an extension's.
var conformanceScenarios = []struct {
	scenario string
	args     []string
	// output, when set, is something check's output must say (the
	// scenario's server publishes something worth a finding).
	output string
}{
	// The handshake: the default --fail-on, as CI runs it.
	{scenario: "initialize", args: []string{"check", "--url"}},
	// A client of 2026-07-28 alone sends its version's header and _meta
	// on every request; by default check also lists the initialize era,
	// whose requests carry neither, so these run with --protocol.
	{scenario: "request-metadata", args: []string{"check", "--protocol", "2026-07-28", "--url"}},
	{scenario: "http-standard-headers", args: []string{"check", "--protocol", "2026-07-28", "--url"}},
	// The server's tool has a $ref to a network URI, which check must not
	// fetch (the scenario's check) and reports (ref-resolvable), failing
	// at its default --fail-on: that verdict is right, so it runs with
	// --fail-on never.
	{scenario: "json-schema-ref-no-deref", args: []string{"check", "--fail-on", "never", "--url"}, output: "error ref-resolvable"},
}

func TestConformanceClient(t *testing.T) {
	node, suite := testenv.Conformance(t)
	expected := expectedFailures(t)
	all := clientScenarios(t, node, suite)
	ran := map[string]bool{}
	for _, c := range conformanceScenarios {
		ran[c.scenario] = true
	}
	for name, tag := range all {
		if !ran[name] && !expected[name] && tag != "extension" {
			t.Errorf("client scenario %s [%s] is neither run here nor an expected failure in testdata/conformance/expected-failures.yaml: decide which", name, tag)
		}
	}
	for name := range expected {
		if _, ok := all[name]; !ok {
			t.Errorf("expected failure %s is no client scenario of the suite any more", name)
		}
		if ran[name] {
			t.Errorf("%s is both run and an expected failure", name)
		}
	}
	for _, c := range conformanceScenarios {
		t.Run(c.scenario, func(t *testing.T) {
			t.Parallel()
			a, _ := json.Marshal(c.args)
			results := t.TempDir()
			cmd := exec.Command(node, suite, "client", "--command", os.Args[0], "--scenario", c.scenario, "--timeout", "20000", "-o", results)
			cmd.Dir = t.TempDir()
			cmd.Env = append(os.Environ(), checkServerEnv+"=cli", "MCPLINT_CHECK_TEST_ARGS="+string(a), "NO_COLOR=1")
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			err := cmd.Run()
			if err != nil || !strings.Contains(out.String(), "OVERALL: PASSED") {
				t.Errorf("conformance client --scenario %s (mcplint %s URL): %v\n%s", c.scenario, strings.Join(c.args, " "), err, out.String())
			}
			if c.output != "" {
				// The suite keeps what the client printed in a folder of
				// the scenario's run.
				printed, _ := filepath.Glob(filepath.Join(results, "*", "stdout.txt"))
				var b []byte
				if len(printed) == 1 {
					b, _ = os.ReadFile(printed[0])
				}
				if !strings.Contains(string(b), c.output) {
					t.Errorf("check's output lacks %q:\n%s", c.output, b)
				}
			}
		})
	}
}

// clientScenarios lists the suite's client scenarios, with the tag the
// suite gives each ("2025-06-18,2025-11-25", "extension").
func clientScenarios(t *testing.T, node, suite string) map[string]string {
	t.Helper()
	out, err := exec.Command(node, suite, "list").Output()
	if err != nil {
		t.Fatalf("conformance list: %v", err)
	}
	all := map[string]string{}
	in := false
	line := regexp.MustCompile(`^\s+- (\S+) \[([^\]]*)\]`)
	s := bufio.NewScanner(bytes.NewReader(out))
	for s.Scan() {
		switch {
		case strings.HasPrefix(s.Text(), "Client scenarios"):
			in = true
		case s.Text() != "" && !strings.HasPrefix(s.Text(), " "):
			in = false
		}
		if m := line.FindStringSubmatch(s.Text()); in && m != nil {
			all[m[1]] = m[2]
		}
	}
	if len(all) < 10 {
		t.Fatalf("only %d client scenarios in:\n%s", len(all), out)
	}
	return all
}

// expectedFailures reads the client scenarios of the baseline file, each
// of which must follow a comment that says why.
func expectedFailures(t *testing.T) map[string]bool {
	t.Helper()
	path := filepath.Join(testenv.RepoRoot(t), "testdata", "conformance", "expected-failures.yaml")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	reason := false
	for _, l := range strings.Split(string(src), "\n") {
		trimmed := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(trimmed, "#") && strings.HasPrefix(l, "  "):
			reason = true
		case strings.HasPrefix(trimmed, "- "):
			if !reason {
				t.Errorf("%s: %s has no reason (a comment above it)", path, trimmed)
			}
			out[strings.TrimPrefix(trimmed, "- ")] = true
		case trimmed == "":
			reason = false
		}
	}
	if !slices.ContainsFunc([]string{"tools_call"}, func(s string) bool { return out[s] }) {
		t.Errorf("%s lists no tools_call", path)
	}
	return out
}
