package testenv

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// RequireOraclesVar names the environment variable that turns a missing
// oracle from a skip into a failure. `make test` sets it after installing
// every oracle, so that a test judged by nobody cannot pass unnoticed
// there, while plain `go test ./...` on a machine with Go alone still
// passes.
const RequireOraclesVar = "MCPLINT_REQUIRE_ORACLES"

// OraclesRequired says whether RequireOraclesVar is set.
func OraclesRequired() bool { return os.Getenv(RequireOraclesVar) != "" }

// Missing ends t because something outside Go that the test is judged by
// is not there: a skip with the one line why, or a failure when
// MCPLINT_REQUIRE_ORACLES is set.
func Missing(t testing.TB, why string) {
	t.Helper()
	if OraclesRequired() {
		t.Fatalf("%s (%s is set: every oracle is required)", why, RequireOraclesVar)
	}
	t.Skip(why)
}

// Command returns the path of the program name on PATH, or ends t through
// Missing, saying that `make test` installs it.
func Command(t testing.TB, name string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		Missing(t, fmt.Sprintf("%s is not on PATH; `make test` installs it", name))
	}
	return path
}

// MCPSpecVar names the environment variable that locates the official MCP
// schemas (one folder per protocol version, each with schema.json) when
// they are not at ../shared/mcp-spec beside the repository.
const MCPSpecVar = "MCPLINT_MCP_SPEC"

// MCPSpec returns the folder of the official MCP schemas: $MCPLINT_MCP_SPEC,
// or ../shared/mcp-spec relative to the repository root. They are read as
// oracles and never copied into the repository; when they are absent the
// test ends through Missing.
func MCPSpec(t testing.TB) string {
	t.Helper()
	dir := os.Getenv(MCPSpecVar)
	if dir == "" {
		dir = filepath.Join(RepoRoot(t), "..", "shared", "mcp-spec")
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		Missing(t, fmt.Sprintf("the official MCP schemas are not at %s; set %s to their folder (one folder per protocol version)", dir, MCPSpecVar))
	}
	return dir
}
