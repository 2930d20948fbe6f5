package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpfit/mcplint/convert"
	"github.com/mcpfit/mcplint/internal/testenv"
	"github.com/mcpfit/mcplint/live"
	"github.com/mcpfit/mcplint/rules"
)

// configBlocks returns the fenced JSON blocks of a page that configure a
// server run through mcplint proxy, with the line each starts at.
func configBlocks(t *testing.T, path string) map[int]string {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[int]string{}
	lines := strings.Split(string(src), "\n")
	for i := 0; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "```json" {
			continue
		}
		start := i + 1
		for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "```"; i++ {
		}
		block := strings.Join(lines[start:i], "\n")
		if strings.Contains(block, `"mcplint"`) && strings.Contains(block, `"proxy"`) {
			out[start] = block
		}
	}
	return out
}

// TestProxyConfigExamples: every client configuration of README.md and
// docs/*.md that runs a server through mcplint proxy is read as the
// clients read it, and run: mcplint proxy starts the server it names (the
// reference servers, as `npm install -g` installs them), and a client's
// handshake, listing and call through it get their answers.
func TestProxyConfigExamples(t *testing.T) {
	root := testenv.RepoRoot(t)
	pages, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	pages = append([]string{filepath.Join(root, "README.md")}, pages...)
	found := 0
	for _, page := range pages {
		rel, _ := filepath.Rel(root, page)
		for line, block := range configBlocks(t, page) {
			found++
			t.Run(fmt.Sprintf("%s:%d", strings.ReplaceAll(rel, "/", "_"), line), func(t *testing.T) {
				servers, err := live.ParseClientConfig("mcp.json", []byte(block), func(string) (string, bool) { return "", false })
				if err != nil || len(servers) == 0 {
					t.Fatalf("%s:%d: not a client configuration: %v", rel, line, err)
				}
				for _, s := range servers {
					c := s.Target.Command
					if len(c) < 2 || c[0] != "mcplint" || c[1] != "proxy" {
						t.Fatalf("%s:%d: server %q runs %q, not mcplint proxy", rel, line, s.Name, c)
					}
					runProxyExample(t, c[1:])
				}
			})
		}
	}
	if found < 5 {
		t.Errorf("only %d proxy configurations found: the test no longer reads the pages", found)
	}
}

// runProxyExample runs mcplint with args (proxy …) in-process as a client
// would start it, and talks to it.
func runProxyExample(t *testing.T, args []string) {
	t.Helper()
	bin := filepath.Join(testenv.NPM(t, referenceServers), "node_modules", ".bin")
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr syncWriter
	e := &env{stdin: inR, stdout: outW, stderr: &stderr, getenv: os.Getenv, catalogue: rules.All}
	done := make(chan int, 1)
	go func() {
		done <- e.run(context.Background(), append([]string{"mcplint"}, args...))
		outW.Close()
	}()
	defer func() {
		inW.Close()
		_, _ = io.Copy(io.Discard, outR)
		select {
		case code := <-done:
			if code != 0 {
				t.Errorf("mcplint %s: exit status %d\n%s", strings.Join(args, " "), code, stderr.String())
			}
		case <-time.After(20 * time.Second):
			t.Errorf("mcplint %s did not end when its input did", strings.Join(args, " "))
		}
	}()
	for _, m := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"docs","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get-sum","arguments":{"a":"2","b":3}}}`,
	} {
		if _, err := io.WriteString(inW, m+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	got := map[int]json.RawMessage{}
	timeout := time.After(30 * time.Second)
	for len(got) < 3 {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("mcplint %s ended early:\n%s", strings.Join(args, " "), stderr.String())
			}
			var m struct {
				ID     int             `json:"id"`
				Result json.RawMessage `json:"result"`
			}
			if json.Unmarshal([]byte(l), &m) == nil && m.ID > 0 && m.Result != nil {
				got[m.ID] = m.Result
			}
		case <-timeout:
			t.Fatalf("mcplint %s: no answer\n%s", strings.Join(args, " "), stderr.String())
		}
	}
	if !strings.Contains(string(got[2]), `"name":"get-sum"`) {
		t.Errorf("tools/list: %.300s", got[2])
	}
	if !strings.Contains(string(got[3]), "The sum of 2 and 3 is 5.") {
		t.Errorf("tools/call with \"2\" for a number: %s", got[3])
	}
}

// syncWriter is a buffer that several goroutines write.
type syncWriter struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (w *syncWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.Write(p)
}

func (w *syncWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// TestProxyUsage: a --for, a target or a --listen the proxy cannot use is
// a usage error (status 2) naming the flag.
func TestProxyUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"proxy", "--for", "netscape", "--", "server"}, `--for: unknown client "netscape"`},
		{[]string{"proxy"}, "give a command to start"},
		{[]string{"proxy", "--url", "https://example.com/mcp", "--", "server"}, "both a command and a URL"},
		{[]string{"proxy", "--listen", "a:b:c", "--", "server"}, "--listen"},
		{[]string{"proxy", "--max-message-size", "0", "--", "server"}, "is not a size"},
	} {
		r := mcplint(t, runOpts{}, c.args...)
		r.want(t, 2)
		if !strings.Contains(r.stderr, c.says) {
			t.Errorf("%v: stderr %q, want it to say %q", c.args, r.stderr, c.says)
		}
	}
}

func TestListenAddr(t *testing.T) {
	for in, want := range map[string]string{"8931": "127.0.0.1:8931", ":8931": "127.0.0.1:8931", "0.0.0.0:80": "0.0.0.0:80", "[::1]:9": "[::1]:9", "localhost:0": "localhost:0"} {
		if got, err := listenAddr(in); err != nil || got != want {
			t.Errorf("listenAddr(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

// TestProxyServerFails: a server that exits while the client is there
// ends the proxy with status 3, the server's last stderr lines said.
func TestProxyServerFails(t *testing.T) {
	inR, inW := io.Pipe()
	defer inW.Close()
	var stdout, stderr syncWriter
	e := &env{stdin: inR, stdout: &stdout, stderr: &stderr, getenv: func(string) string { return "" }, catalogue: rules.All}
	code := e.run(context.Background(), []string{"mcplint", "proxy", serverEnvFlag("crash"), "--", os.Args[0]})
	if code != 3 || !strings.Contains(stderr.String(), "panic: cannot open database") {
		t.Errorf("exit status %d, stderr:\n%s", code, stderr.String())
	}
}

// TestProxyHelpNamesClients: the help names every client --for takes.
func TestProxyHelpNamesClients(t *testing.T) {
	for _, c := range convert.Clients {
		if !strings.Contains(proxyDescription, c+",") && !strings.Contains(proxyDescription, c+";") && !strings.Contains(proxyDescription, c+" ") {
			t.Errorf("the help of proxy does not name %q", c)
		}
	}
}
