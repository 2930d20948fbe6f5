package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The test binary doubles as a stdio MCP server when this is set.
const checkServerEnv = "MCPLINT_CHECK_TEST_SERVER"

func TestMain(m *testing.M) {
	switch os.Getenv(checkServerEnv) {
	case "":
		os.Exit(m.Run())
	case "cli":
		// mcplint itself, for the tests that signal it.
		var args []string
		_ = json.Unmarshal([]byte(os.Getenv("MCPLINT_CHECK_TEST_ARGS")), &args)
		os.Exit(run(context.Background(), append([]string{"mcplint"}, args...), os.Stdin, os.Stdout, os.Stderr))
	case "hang":
		_ = os.WriteFile(os.Getenv("MCPLINT_CHECK_TEST_PIDFILE"), []byte(strconv.Itoa(os.Getpid())), 0o644)
		time.Sleep(time.Hour)
	case "crash":
		fmt.Fprintln(os.Stderr, "panic: cannot open database")
		os.Exit(2)
	default:
		if err := testServer().Run(context.Background(), &mcp.StdioTransport{}); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
}

// testServer publishes one clean tool and one whose name has a space.
func testServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "cli-test-server", Version: "2.0.0"}, nil)
	h := func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{}, nil
	}
	s.AddTool(&mcp.Tool{Name: "echo", Description: "Echo the text back.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`)}, h)
	s.AddTool(&mcp.Tool{Name: "read file", Description: "Read a file.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`)}, h)
	return s
}

func serverEnvFlag(mode string) string { return "--env=" + checkServerEnv + "=" + mode }

func TestCheckStdio(t *testing.T) {
	save := filepath.Join(t.TempDir(), "tools.ndjson")
	r := mcplint(t, runOpts{}, "check", naming, "--fail-on=warning", serverEnvFlag("ok"), "--save", save, "--", os.Args[0], "-test.run=^$")
	r.want(t, 1)
	for _, want := range []string{
		"server cli-test-server 2.0.0, protocol 2026-07-28 over stdio: 2 tools",
		save + ":1:",
		`warning tool-name-valid: tool name "read file" contains a space`,
		"0 errors, 1 warning",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, r.stdout)
		}
	}
	// The saved tool list is a manifest lint reads, with the same finding
	// at the same place.
	l := mcplint(t, runOpts{}, "lint", naming, "--fail-on=warning", save)
	l.want(t, 1)
	line := r.stdout[strings.Index(r.stdout, save):]
	line = line[:strings.Index(line, "\n")]
	if !strings.Contains(l.stdout, line) {
		t.Errorf("lint of the saved list:\n%s\nwant the line %q", l.stdout, line)
	}
}

func TestCheckJSON(t *testing.T) {
	r := mcplint(t, runOpts{}, "check", naming, "--fail-on=warning", "--format=json", serverEnvFlag("ok"), "--", os.Args[0], "-test.run=^$")
	r.want(t, 1)
	var doc struct {
		Version int `json:"version"`
		Server  struct {
			Name, Version, Protocol, Transport string
		} `json:"server"`
		Tools       []string `json:"tools"`
		Diagnostics []struct {
			Rule, Tool string
		} `json:"diagnostics"`
		Summary struct{ Warnings int } `json:"summary"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	if doc.Version != 1 || doc.Server.Name != "cli-test-server" || doc.Server.Version != "2.0.0" ||
		doc.Server.Protocol != "2026-07-28" || doc.Server.Transport != "stdio" ||
		strings.Join(doc.Tools, ",") != "echo,read file" || len(doc.Diagnostics) != 1 ||
		doc.Diagnostics[0].Rule != "tool-name-valid" || doc.Summary.Warnings != 1 {
		t.Errorf("report: %+v", doc)
	}
}

func TestCheckHTTPHeaderFromEnv(t *testing.T) {
	s := testServer()
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer s3cret" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	}))
	defer srv.Close()
	r := mcplint(t, runOpts{env: map[string]string{"TOKEN": "s3cret"}}, "check", naming, "--fail-on=warning", "--url", srv.URL, "--header", "Authorization: Bearer $TOKEN")
	r.want(t, 1)
	if !strings.Contains(r.stdout, "protocol 2025-11-25 over http: 2 tools") {
		t.Errorf("output:\n%s", r.stdout)
	}
	// A wrong token: exit 3, one line, and the value is not shown.
	r = mcplint(t, runOpts{env: map[string]string{"TOKEN": "wrong"}}, "check", "--url", srv.URL, "--header", "Authorization: Bearer $TOKEN")
	r.want(t, 3)
	want := "mcplint: " + srv.URL + " answered POST with HTTP 401 Unauthorized; check the credentials passed with --header\n"
	if r.stderr != want || strings.Contains(r.stdout+r.stderr, "wrong") {
		t.Errorf("stderr %q, want %q", r.stderr, want)
	}
	// An unset variable is a usage error naming the variable.
	r = mcplint(t, runOpts{}, "check", "--url", srv.URL, "--header", "Authorization: Bearer $TOKEN")
	r.want(t, 2)
	if !strings.Contains(r.stderr, "--header Authorization: environment variable TOKEN is not set") {
		t.Errorf("stderr %q", r.stderr)
	}
}

func TestCheckFailures(t *testing.T) {
	r := mcplint(t, runOpts{}, "check", serverEnvFlag("crash"), "--", os.Args[0])
	r.want(t, 3)
	if !strings.HasPrefix(r.stderr, "mcplint: the server exited during the conversation (exit status 2)\n") ||
		!strings.Contains(r.stderr, "    panic: cannot open database\n") {
		t.Errorf("stderr:\n%s", r.stderr)
	}
	pidfile := filepath.Join(t.TempDir(), "pid")
	r = mcplint(t, runOpts{}, "check", "--timeout=500ms", serverEnvFlag("hang"), "--env=MCPLINT_CHECK_TEST_PIDFILE="+pidfile, "--", os.Args[0])
	r.want(t, 3)
	if r.stderr != "mcplint: the server did not answer in time (timeout)\n" {
		t.Errorf("stderr %q", r.stderr)
	}
	if b, err := os.ReadFile(pidfile); err != nil {
		t.Error(err)
	} else if pid, _ := strconv.Atoi(string(b)); processExists(pid) {
		t.Errorf("the hanging server (pid %d) is still running", pid)
	}
	r = mcplint(t, runOpts{}, "check", "--", "mcplint-no-such-server")
	r.want(t, 3)
	if r.stderr != "mcplint: cannot start \"mcplint-no-such-server\": command not found\n" {
		t.Errorf("stderr %q", r.stderr)
	}
}

func TestCheckUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"check", "--no-config"}, "nothing to check: give a command after --, --url URL or --client-config FILE, or list servers in .mcplint.yaml (no configuration file was found)"},
		{[]string{"check", "--config", "testdata/project/.mcplint.yaml"}, "testdata/project/.mcplint.yaml has no servers"},
		{[]string{"check", "--client-config", "testdata/clean.json", "--", "server"}, "--client-config checks the servers of a file; give no command or --url with it"},
		{[]string{"check", "--url", "http://127.0.0.1:1/mcp", "--", "server"}, "give either a command or a URL, not both"},
		{[]string{"check", "--transport", "ftp", "--url", "http://127.0.0.1:1/mcp"}, `unknown transport "ftp"`},
		{[]string{"check", "--header", "novalue", "--url", "http://127.0.0.1:1/mcp"}, `--header "novalue": want 'NAME: VALUE'`},
		{[]string{"check", "--env", "X", "--", "server"}, `--env "X": want K=V`},
		{[]string{"check", "--protocol", "1999-01-01", "--", "server"}, "unknown MCP protocol version"},
	} {
		r := mcplint(t, runOpts{}, c.args...)
		r.want(t, 2)
		if !strings.Contains(r.stderr, c.want) {
			t.Errorf("%q: stderr %q, want %q", c.args, r.stderr, c.want)
		}
	}
}

func TestCheckConfig(t *testing.T) {
	dir := t.TempDir()
	cfg := fmt.Sprintf(`{
  // VS Code's format, comments and all
  "servers": {
    "good": {"type": "stdio", "command": %q, "args": ["-test.run=^$"], "env": {%q: "${MODE}"}},
    "crashing": {"command": %q, "env": {%q: "crash"}},
    "unset": {"url": "http://127.0.0.1:1/mcp", "headers": {"Authorization": "Bearer ${env:NO_SUCH_TOKEN}"}},
  }
}`, os.Args[0], checkServerEnv, os.Args[0], checkServerEnv)
	path := filepath.Join(dir, "mcp.json")
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	r := mcplint(t, runOpts{env: map[string]string{"MODE": "ok"}}, "check", naming, "--fail-on=warning", "--client-config", path)
	r.want(t, 3)
	for _, want := range []string{
		"== crashing\nfailed: the server exited during the conversation (exit status 2)\n",
		"== good\nserver cli-test-server 2.0.0, protocol 2026-07-28 over stdio: 2 tools\n",
		`good:1:`,
		"== unset\nfailed: server \"unset\": environment variable NO_SUCH_TOKEN is not set\n",
		"\ncrashing: failed: the server exited during the conversation (exit status 2)\ngood: 2 tools, 0 errors, 1 warnings\nunset: failed: server \"unset\": environment variable NO_SUCH_TOKEN is not set\n",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, r.stdout)
		}
	}
	// On a terminal, progress goes to standard error.
	r = mcplint(t, runOpts{tty: true, env: map[string]string{"MODE": "ok"}}, "check", naming, "--color=never", "--client-config", path)
	r.want(t, 3)
	if !strings.Contains(r.stderr, "\rchecking 3 servers: 3 done\r\033[K") {
		t.Errorf("progress: %q", r.stderr)
	}
	r = mcplint(t, runOpts{env: map[string]string{"MODE": "ok"}}, "check", naming, "--fail-on=warning", "--format=json", "--client-config", path)
	r.want(t, 3)
	var doc struct {
		Servers []struct {
			Name  string
			Tools []string
			Error string
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil || len(doc.Servers) != 3 ||
		len(doc.Servers[1].Tools) != 2 || doc.Servers[0].Error == "" || doc.Servers[1].Error != "" {
		t.Errorf("json (%v):\n%s", err, r.stdout)
	}
}

// TestCheckInterrupt: Ctrl-C stops the check and the server it started.
func TestCheckInterrupt(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows cannot send os.Interrupt to a process")
	}
	pidfile := filepath.Join(t.TempDir(), "pid")
	args, _ := json.Marshal([]string{"check", serverEnvFlag("hang"), "--env=MCPLINT_CHECK_TEST_PIDFILE=" + pidfile, "--", os.Args[0]})
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), checkServerEnv+"=cli", "MCPLINT_CHECK_TEST_ARGS="+string(args))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	var server int
	for deadline := time.Now().Add(10 * time.Second); server == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the server did not start")
		}
		b, _ := os.ReadFile(pidfile)
		server, _ = strconv.Atoi(string(b))
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 3 || stderr.String() != "mcplint: interrupted\n" {
		t.Errorf("exit %v, stderr %q; want status 3 and \"mcplint: interrupted\"", err, stderr.String())
	}
	// The server was killed; once its parent (mcplint) is gone it is
	// reaped, so it must not exist at all.
	for deadline := time.Now().Add(3 * time.Second); processExists(server) && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	if processExists(server) {
		t.Errorf("the server (pid %d) is still running", server)
	}
}
