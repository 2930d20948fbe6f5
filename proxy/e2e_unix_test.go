//go:build unix

package proxy

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mcpfit/mcplint/internal/testenv"
	"github.com/mcpfit/mcplint/live"
)

// The end-to-end tests drive the MCP TypeScript SDK's Client
// (testdata/oracles/proxy-client.mjs) against servers no one here wrote,
// the MCP reference servers from npm, once directly and once through the
// proxy, and compare what every step got: everything a client does
// directly must work the same through the proxy. The steps named
// "coerce: ..." are the differences the proxy makes on purpose.

const referenceServers = "live/testdata/reference-servers"

// referenceEntry is the entry point of an installed reference server.
func referenceEntry(t *testing.T, name string) string {
	t.Helper()
	path := filepath.Join(testenv.NPM(t, referenceServers), "node_modules", "@modelcontextprotocol", "server-"+name, "dist", "index.js")
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("reference server %s is not installed: %v", name, err)
	}
	return path
}

func nodePath(t *testing.T) string {
	t.Helper()
	return testenv.Command(t, "node")
}

// clientRun is what the TypeScript client got, step by step.
type clientRun map[string]json.RawMessage

// drive runs the TypeScript client with config.
func drive(t *testing.T, config map[string]any) clientRun {
	t.Helper()
	dir := testenv.Oracles(t)
	b, _ := json.Marshal(config)
	cmd := exec.Command(nodePath(t), filepath.Join(dir, "proxy-client.mjs"), string(b))
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	done := make(chan struct{})
	timer := time.AfterFunc(90*time.Second, func() { _ = cmd.Process.Kill() })
	defer timer.Stop()
	out, err := cmd.Output()
	close(done)
	if err != nil {
		t.Fatalf("the TypeScript client failed: %v\n%s", err, stderr.String())
	}
	var run clientRun
	if err := json.Unmarshal(out, &run); err != nil {
		t.Fatalf("the TypeScript client printed %s: %v", out, err)
	}
	if c, ok := run["connect"]; ok {
		t.Fatalf("the TypeScript client could not connect: %s", c)
	}
	return run
}

// viaProxy is a stdio command that runs the proxy (the test binary) in
// front of the server.
func viaProxy(o map[string]any) map[string]any {
	b, _ := json.Marshal(o)
	return map[string]any{"transport": "stdio", "command": os.Args[0],
		"env": map[string]string{serverEnv: "proxy", "MCPLINT_PROXY_TEST_OPTIONS": string(b)}}
}

var clockTime = regexp.MustCompile(`\d{1,2}:\d{2}:\d{2}( [AP]M)?`)

// same compares two runs step by step, but for the steps starting
// "coerce: " (the client's error directly, a result through the proxy),
// after replace (paths and such that differ between runs).
func same(t *testing.T, direct, proxied clientRun, replace *strings.Replacer) {
	t.Helper()
	if len(direct) < 4 {
		t.Fatalf("only %d steps ran", len(direct))
	}
	for step, d := range direct {
		p, ok := proxied[step]
		if !ok {
			t.Errorf("%s: no result through the proxy", step)
			continue
		}
		if strings.HasPrefix(step, "coerce: ") {
			if !failed(d) || failed(p) {
				t.Errorf("%s: directly %s\nthrough the proxy %s\nwant an error directly, a result through the proxy", step, d, p)
			}
			continue
		}
		dn, pn := normalized(string(d), replace), normalized(string(p), replace)
		if step == "progress" {
			dn, pn = progressed(t, d), progressed(t, p)
		}
		if dn != pn {
			t.Errorf("%s differs:\ndirectly          %s\nthrough the proxy %s", step, clip(dn), clip(pn))
		}
	}
}

func normalized(s string, r *strings.Replacer) string {
	if r != nil {
		s = r.Replace(s)
	}
	return clockTime.ReplaceAllString(s, "TIME")
}

// progressed is a progress step with the count of notifications reduced
// to whether any came: how many arrive before the response depends on
// timing, directly as through the proxy.
func progressed(t *testing.T, raw json.RawMessage) string {
	var p struct {
		Result   json.RawMessage `json:"result"`
		Progress int             `json:"progress"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%s progress:%v", p.Result, p.Progress > 0)
}

// failed says whether a step's outcome is an error: thrown, or a tool
// error result.
func failed(raw json.RawMessage) bool {
	var r struct {
		Error   any  `json:"error"`
		IsError bool `json:"isError"`
	}
	_ = json.Unmarshal(raw, &r)
	return r.Error != nil || r.IsError
}

func clip(s string) string {
	if len(s) > 600 {
		return s[:600] + "…"
	}
	return s
}

// TestE2EStdio: the reference servers over stdio, directly and through the
// proxy (which adapts for every mainstream client by default).
func TestE2EStdio(t *testing.T) {
	node := nodePath(t)
	for _, server := range []string{"everything", "filesystem", "memory"} {
		t.Run(server, func(t *testing.T) {
			t.Parallel()
			entry := referenceEntry(t, server)
			scenario := server
			run := func(proxied bool) (clientRun, string) {
				dir := t.TempDir()
				args := []string{entry}
				env := map[string]string{"MEMORY_FILE_PATH": filepath.Join(dir, "memory.jsonl")}
				switch server {
				case "everything":
					args = append(args, "stdio")
				case "filesystem":
					args = append(args, dir)
				}
				config := map[string]any{"transport": "stdio", "command": node, "args": args, "env": env}
				if proxied {
					config = viaProxy(map[string]any{"Command": append([]string{node}, args...)})
					config["env"].(map[string]string)["MEMORY_FILE_PATH"] = env["MEMORY_FILE_PATH"]
				}
				config["scenario"], config["dir"] = scenario, dir
				return drive(t, config), dir
			}
			var (
				proxied clientRun
				d2      string
				wg      sync.WaitGroup
			)
			wg.Add(1)
			go func() {
				defer wg.Done()
				proxied, d2 = run(true)
			}()
			direct, d1 := run(false)
			wg.Wait()
			if proxied == nil {
				t.FailNow()
			}
			same(t, direct, proxied, strings.NewReplacer(d1, "DIR", d2, "DIR"))
		})
	}
}

// startEverythingHTTP starts server-everything's Streamable HTTP server on
// a free loopback port and returns its MCP endpoint.
func startEverythingHTTP(t *testing.T) string {
	t.Helper()
	port := freePort(t)
	cmd := exec.Command(nodePath(t), referenceEntry(t, "everything"), "streamableHttp")
	cmd.Env = append(os.Environ(), "PORT="+strconv.Itoa(port))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
	})
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	deadline := time.Now().Add(15 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			return "http://" + addr + "/mcp"
		}
		if time.Now().After(deadline) {
			t.Fatalf("server-everything did not listen on %s: %v", addr, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// TestE2EStreamableHTTP: server-everything over Streamable HTTP, directly,
// and through the proxy three ways: a stdio client to the HTTP server, an
// HTTP client to the server started as a command, an HTTP client to the
// HTTP server.
func TestE2EStreamableHTTP(t *testing.T) {
	endpoint := startEverythingHTTP(t)
	direct := drive(t, map[string]any{"transport": "http", "url": endpoint, "scenario": "everything"})
	t.Run("stdio client, HTTP server", func(t *testing.T) {
		t.Parallel()
		config := viaProxy(map[string]any{"URL": endpoint})
		config["scenario"] = "everything"
		same(t, direct, drive(t, config), nil)
	})
	t.Run("HTTP client, stdio server", func(t *testing.T) {
		t.Parallel()
		url := listen(t, Options{Target: live.Target{Command: []string{nodePath(t), referenceEntry(t, "everything"), "stdio"}}})
		same(t, direct, drive(t, map[string]any{"transport": "http", "url": url, "scenario": "everything"}), nil)
	})
	t.Run("HTTP client, HTTP server", func(t *testing.T) {
		t.Parallel()
		url := listen(t, Options{Target: live.Target{URL: endpoint}})
		same(t, direct, drive(t, map[string]any{"transport": "http", "url": url, "scenario": "everything"}), nil)
	})
}

// TestE2EZodServer: a server that validates arguments with Zod answers a
// model's "5" for a number with -32602 directly, and takes the call
// through the proxy; through --for openai its dotted tool name is renamed
// and called back; a result breaking its outputSchema, which the
// TypeScript SDK's client throws on, becomes a tool error it takes.
func TestE2EZodServer(t *testing.T) {
	server := []string{nodePath(t), filepath.Join(testenv.Oracles(t), "zod-server.mjs")}
	direct := drive(t, map[string]any{"transport": "stdio", "command": server[0], "args": server[1:], "scenario": "zod"})
	config := viaProxy(map[string]any{"Command": server, "For": "openai"})
	config["scenario"] = "zod"
	proxied := drive(t, config)
	var e struct {
		Error struct{ Code int } `json:"error"`
	}
	if err := json.Unmarshal(direct[`add "5"`], &e); err != nil || e.Error.Code != -32602 {
		t.Errorf(`directly, add "5" got %s; want the error -32602`, direct[`add "5"`])
	}
	for step, want := range map[string]string{
		`add`: `"text":"5"`, `add "5"`: `"text":"8"`, `toggle "true"`: `"text":"on"`, `configure JSON text`: `"text":"depth 2"`,
	} {
		if got := string(proxied[step]); failed(proxied[step]) || !strings.Contains(got, want) {
			t.Errorf("through the proxy, %s got %s; want %s", step, got, want)
		}
	}
	if got := string(proxied[`add "five"`]); !strings.Contains(got, "-32602") {
		t.Errorf(`through the proxy, add "five" got %s; want the server's own error`, got)
	}
	if !strings.Contains(string(direct["stats (breaks its outputSchema)"]), "Structured content does not match") {
		t.Errorf("directly, stats got %s", direct["stats (breaks its outputSchema)"])
	}
	if got := string(proxied["stats (breaks its outputSchema)"]); !strings.Contains(got, `"isError":true`) || !strings.Contains(got, `given here as text: {\"count\":\"many\"}`) {
		t.Errorf("through the proxy, stats got %s", got)
	}
	if got := string(proxied["tools/list"]); !strings.Contains(got, `"name":"math_add"`) {
		t.Errorf("through --for openai, the tools are %s", got)
	}
}
