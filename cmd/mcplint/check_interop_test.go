package main

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpfit/mcplint/internal/testenv"
)

// The interop tests check servers no one here wrote: the MCP reference
// servers from the npm registry, at the versions pinned in
// live/testdata/reference-servers/package-lock.json, so the tools they list
// and the findings on them are stable.

// referenceServer returns the entry point of an installed reference server.
func referenceServer(t *testing.T, name string) string {
	t.Helper()
	dir := testenv.NPM(t, "live/testdata/reference-servers")
	path := filepath.Join(dir, "node_modules", "@modelcontextprotocol", "server-"+name, "dist", "index.js")
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("reference server %s is not in the locked packages: %v", name, err)
	}
	return path
}

type interopReport struct {
	Server struct {
		Name, Version, Protocol, Transport string
	} `json:"server"`
	Tools             []string `json:"tools"`
	Prompts           []string `json:"prompts"`
	Resources         []string `json:"resources"`
	ResourceTemplates []string `json:"resourceTemplates"`
	Diagnostics       []struct {
		Rule, Tool, Severity string
	} `json:"diagnostics"`
	Summary struct {
		Tools, Prompts, Resources, ResourceTemplates int
	} `json:"summary"`
}

// everythingSurface is what server-everything serves besides tools.
var (
	everythingPrompts   = []string{"simple-prompt", "args-prompt", "completable-prompt", "resource-prompt"}
	everythingTemplates = []string{"demo://resource/dynamic/text/{resourceId}", "demo://resource/dynamic/blob/{resourceId}"}
)

// assertEverythingSurface checks the four kinds server-everything lists,
// their counts in the summary, and that its surface draws no finding.
func assertEverythingSurface(t *testing.T, rep interopReport) {
	t.Helper()
	if !slices.Equal(rep.Prompts, everythingPrompts) || !slices.Equal(rep.ResourceTemplates, everythingTemplates) || len(rep.Resources) != 7 {
		t.Errorf("prompts %q, resources %q, templates %q", rep.Prompts, rep.Resources, rep.ResourceTemplates)
	}
	s := rep.Summary
	if s.Tools != len(everythingTools) || s.Prompts != 4 || s.Resources != 7 || s.ResourceTemplates != 2 {
		t.Errorf("summary counts %+v, want 14 tools, 4 prompts, 7 resources, 2 resource templates", s)
	}
}

// findings lists "rule tool" per diagnostic, sorted.
func (r interopReport) findings() []string {
	var out []string
	for _, d := range r.Diagnostics {
		out = append(out, d.Rule+" "+d.Tool)
	}
	slices.Sort(out)
	return out
}

func checkJSONOf(t *testing.T, args ...string) interopReport {
	t.Helper()
	// A fixed selection: the packs' rules, not whatever is on by default,
	// so a new pack does not change what these tests expect.
	r := mcplint(t, runOpts{}, append([]string{"check", "--format=json", "--select=mcp,robust", "--fail-on=never", "--timeout=30s"}, args...)...)
	r.want(t, 0)
	var rep interopReport
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	return rep
}

var everythingTools = []string{"echo", "get-annotated-message", "get-env", "get-resource-links", "get-resource-reference", "get-structured-content", "get-sum", "get-tiny-image", "gzip-file-as-resource", "toggle-simulated-logging", "toggle-subscriber-updates", "trigger-long-running-operation", "get-roots-list", "simulate-research-query"}

// everythingFindings: its integer parameters refuse "1" (integer-accepts-string).
var everythingFindings = []string{
	"integer-accepts-string get-resource-links",
	"integer-accepts-string get-resource-reference",
	"integer-accepts-string get-sum",
	"integer-accepts-string get-sum",
	"integer-accepts-string trigger-long-running-operation",
	"integer-accepts-string trigger-long-running-operation",
}

func TestInteropStdio(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		server, name, version string
		args                  []string
		tools                 []string
		findings              []string
	}{
		{"everything", "mcp-servers/everything", "2.0.0", nil, everythingTools, everythingFindings},
		{"memory", "memory-server", "0.6.3", nil,
			[]string{"create_entities", "create_relations", "add_observations", "delete_entities", "delete_observations", "delete_relations", "read_graph", "search_nodes", "open_nodes"},
			nil},
		{"sequential-thinking", "sequential-thinking-server", "2026.8.31", nil, []string{"sequentialthinking"},
			[]string{"integer-accepts-string sequentialthinking", "integer-accepts-string sequentialthinking", "integer-accepts-string sequentialthinking", "integer-accepts-string sequentialthinking"}},
		{"filesystem", "secure-filesystem-server", "0.2.0", []string{dir},
			[]string{"read_file", "read_text_file", "read_media_file", "read_multiple_files", "write_file", "edit_file", "create_directory", "list_directory", "list_directory_with_sizes", "directory_tree", "move_file", "search_files", "get_file_info", "list_allowed_directories"},
			[]string{"integer-accepts-string read_file", "integer-accepts-string read_file", "integer-accepts-string read_text_file", "integer-accepts-string read_text_file"}},
	}
	for _, c := range cases {
		t.Run(c.server, func(t *testing.T) {
			t.Parallel()
			entry := referenceServer(t, c.server)
			target := append([]string{"--env=MEMORY_FILE_PATH=" + filepath.Join(dir, "memory.jsonl"), "--", "node", entry}, c.args...)
			rep := checkJSONOf(t, target...)
			if rep.Server.Name != c.name || rep.Server.Version != c.version || rep.Server.Transport != "stdio" || rep.Server.Protocol != "2025-11-25" {
				t.Errorf("server %+v", rep.Server)
			}
			if !slices.Equal(rep.Tools, c.tools) {
				t.Errorf("tools (%d) %q\nwant (%d) %q", len(rep.Tools), rep.Tools, len(c.tools), c.tools)
			}
			if got := rep.findings(); !slices.Equal(got, c.findings) {
				t.Errorf("findings\n got %q\nwant %q", got, c.findings)
			}
			if c.server == "everything" {
				assertEverythingSurface(t, rep)
			}
			// The same list gets the same findings from the server and
			// from its saved listing, and those are the reviewed
			// verdicts of the recording of the same version.
			saved := sameVerdicts(t, target)
			assertRecorded(t, c.server, saved[0])
		})
	}
}

// assertRecorded holds a listing saved from a live server to the verdicts
// reviewed for its recording in the real-server set.
func assertRecorded(t *testing.T, server, saved string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(testenv.RepoRoot(t), serversDir, server, "verdicts.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "listing.jsonl: "); ok {
			want = append(want, v)
		}
	}
	if got := lintVerdicts(t, saved); !slices.Equal(got, want) {
		t.Errorf("the live %s's listing:\n got %q\nwant %q (%s/%s/verdicts.txt)", server, got, want, serversDir, server)
	}
}

func TestInteropStreamableHTTP(t *testing.T) {
	entry := referenceServer(t, "everything")
	port := freePort(t)
	cmd := exec.Command("node", entry, "streamableHttp")
	cmd.Env = append(os.Environ(), "PORT="+strconv.Itoa(port))
	ownGroup(cmd)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		killGroup(cmd)
		_ = cmd.Wait()
	})
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	deadline := time.Now().Add(15 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("server-everything did not listen on %s: %v", addr, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	url := fmt.Sprintf("http://%s/mcp", addr)
	rep := checkJSONOf(t, "--url", url)
	if rep.Server.Name != "mcp-servers/everything" || rep.Server.Transport != "http" {
		t.Errorf("server %+v", rep.Server)
	}
	if !slices.Equal(rep.Tools, everythingTools) {
		t.Errorf("tools %q", rep.Tools)
	}
	if got := rep.findings(); !slices.Equal(got, everythingFindings) {
		t.Errorf("findings\n got %q\nwant %q", got, everythingFindings)
	}
	assertEverythingSurface(t, rep)
	// Over HTTP as over stdio: the file's verdicts, and the recording's.
	saved := sameVerdicts(t, []string{"--url", url})
	assertRecorded(t, "everything", saved[0])
}

// freePort finds a loopback port nothing listens on.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}
