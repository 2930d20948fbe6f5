package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestMCPServerIsClean: mcplint check of mcplint's own MCP server, with
// and without the check tool, finds nothing, in the default selection and
// with the security pack.
func TestMCPServerIsClean(t *testing.T) {
	for _, c := range []struct {
		args  []string
		tools int
	}{{nil, 4}, {[]string{"--allow-check"}, 5}} {
		args, _ := json.Marshal(append([]string{"mcp"}, c.args...))
		// The server is this test binary running mcplint mcp: the
		// environment it inherits says so (--env splits at commas).
		t.Setenv(checkServerEnv, "cli")
		t.Setenv("MCPLINT_CHECK_TEST_ARGS", string(args))
		for _, sel := range []string{"--extend-select=default", "--extend-select=security"} {
			r := mcplint(t, runOpts{}, "check", sel, "--format=json", "--", os.Args[0])
			r.want(t, 0)
			var rep struct {
				Diagnostics []struct{ Rule, Message string }
				Server      struct{ Name string }
				Tools       []string
				Resources   []string
			}
			if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
				t.Fatalf("%v\n%s", err, r.stdout)
			}
			if len(rep.Diagnostics) > 0 || rep.Server.Name != "mcplint" || len(rep.Tools) != c.tools || len(rep.Resources) < 50 {
				t.Errorf("mcplint check %s -- mcplint %s: %d findings %+v, server %q, tools %v, %d resources",
					sel, strings.Join(append([]string{"mcp"}, c.args...), " "), len(rep.Diagnostics), rep.Diagnostics, rep.Server.Name, rep.Tools, len(rep.Resources))
			}
		}
	}
}

func TestMCPUsage(t *testing.T) {
	r := mcplint(t, runOpts{}, "mcp", "extra")
	r.want(t, 2)
	r = mcplint(t, runOpts{}, "mcp", "--workspace", "/nonexistent/folder")
	r.want(t, 2)
	if !strings.Contains(r.stderr, "--workspace") {
		t.Errorf("stderr: %s", r.stderr)
	}
}
