package proxy

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpfit/mcplint/internal/testenv"
	"github.com/mcpfit/mcplint/live"
)

// The test binary doubles as the servers the proxy relays: with serverEnv
// set it runs the named server on stdin/stdout instead of the tests.
const serverEnv = "MCPLINT_PROXY_TEST_SERVER"

func TestMain(m *testing.M) { testenv.SelfServe(m, serverEnv, serve) }

// self is the target that starts the test binary as the server mode.
func self(mode string, env ...string) live.Target {
	return live.Target{Command: []string{os.Args[0]}, Env: append([]string{serverEnv + "=" + mode}, env...)}
}

// testServer is a go-sdk server with the tools the tests need: names a
// client refuses, typed parameters, an output schema its results break.
func testServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "proxy-test-server", Version: "1.0.0"}, nil)
	// echo answers with the arguments it received, as JSON text.
	echo := func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(req.Params.Arguments)}}}, nil
	}
	s.AddTool(&mcp.Tool{Name: "files.read", Description: "Read a file.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"},"limit":{"type":"integer"}},"required":["path"]}`)}, echo)
	s.AddTool(&mcp.Tool{Name: "count", Description: "Count things.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer","minimum":1},"verbose":{"type":"boolean"},"filter":{"type":"object","properties":{"tag":{"type":"string"}}}},"required":["n"]}`)}, echo)
	s.AddTool(&mcp.Tool{Name: "stats", Description: "Report statistics.",
		InputSchema:  json.RawMessage(`{"type":"object"}`),
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"count":{"type":"integer"}},"required":["count"]}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var a struct{ Good bool }
			_ = json.Unmarshal(req.Params.Arguments, &a)
			if a.Good {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: `{"count":3}`}}, StructuredContent: map[string]any{"count": 3}}, nil
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: `{"count":"many"}`}}, StructuredContent: map[string]any{"count": "many"}}, nil
		})
	s.AddTool(&mcp.Tool{Name: "slow", Description: "Answer after a while.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"ms":{"type":"integer"}}}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var a struct{ Ms int }
			_ = json.Unmarshal(req.Params.Arguments, &a)
			select {
			case <-time.After(time.Duration(a.Ms) * time.Millisecond):
			case <-ctx.Done():
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done " + strconv.Itoa(a.Ms)}}}, nil
		})
	s.AddPrompt(&mcp.Prompt{Name: "greet", Description: "Greet someone."}, func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "hello"}}}}, nil
	})
	s.AddResource(&mcp.Resource{URI: "test://one", Name: "one", MIMEType: "text/plain"}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "test://one", Text: "one"}}}, nil
	})
	return s
}

// serve runs the server named mode on stdio and returns the exit status.
func serve(mode string) int {
	// A grandchild that outlives nothing: the proxy must stop it.
	testenv.WritePIDs("MCPLINT_PROXY_TEST_PIDFILE", serverEnv, mode == "spawn" || mode == "spawndie")
	switch mode {
	case "sdk", "spawn", "growing", "noisy":
		if mode == "noisy" {
			fmt.Println("Server starting on stdio... (a log line where only JSON-RPC belongs)")
		}
		srv := testServer()
		if mode == "growing" {
			// grow adds two tools, which the SDK announces with
			// notifications/tools/list_changed: one whose name OpenAI
			// refuses, and one whose valid name is the rename of
			// files.read.
			srv.AddTool(&mcp.Tool{Name: "grow", Description: "Add tools.", InputSchema: json.RawMessage(`{"type":"object"}`)},
				func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
					for _, name := range []string{"new.tool", "files_read"} {
						srv.AddTool(&mcp.Tool{Name: name, Description: "Added.", InputSchema: json.RawMessage(`{"type":"object"}`)},
							func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
								return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "I am " + req.Params.Name}}}, nil
							})
					}
					return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "grown"}}}, nil
				})
		}
		if err := srv.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return 0
	case "proxy":
		// The proxy itself, for clients that start it as a command.
		var o struct {
			For     string
			URL     string
			Command []string
		}
		if err := json.Unmarshal([]byte(os.Getenv("MCPLINT_PROXY_TEST_OPTIONS")), &o); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		err := Run(context.Background(), Options{Target: live.Target{URL: o.URL, Command: o.Command}, For: o.For,
			Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Log: os.Stderr})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 3
		}
		return 0
	case "sleep":
		time.Sleep(time.Hour)
		return 0
	case "raw":
		return rawServer()
	case "bench":
		return benchServer()
	case "die", "spawndie":
		// Read one request, then exit with a message on stderr.
		r := bufio.NewReader(os.Stdin)
		_, _ = r.ReadString('\n')
		fmt.Fprintln(os.Stderr, "fatal: the database is gone")
		return 7
	}
	fmt.Fprintf(os.Stderr, "unknown mode %q\n", mode)
	return 2
}

// rawServer writes each line it reads to MCPLINT_PROXY_TEST_RECORD and
// answers every request with a result whose bytes the test chose
// (MCPLINT_PROXY_TEST_ANSWER, with ID replaced by the request's id as
// sent), and notifications with nothing.
func rawServer() int {
	rec, err := os.Create(os.Getenv("MCPLINT_PROXY_TEST_RECORD"))
	if err != nil {
		return 1
	}
	defer rec.Close()
	answer := os.Getenv("MCPLINT_PROXY_TEST_ANSWER")
	r := bufio.NewReaderSize(os.Stdin, 1<<20)
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 {
			_, _ = rec.Write(line)
			var m struct {
				ID json.RawMessage `json:"id"`
			}
			if json.Unmarshal(line, &m) == nil && len(m.ID) > 0 && strings.Contains(string(line), `"method"`) {
				fmt.Println(strings.ReplaceAll(answer, "ID", string(m.ID)))
			}
		}
		if err != nil {
			return 0
		}
	}
}

// benchServer answers as fast as it reads: the latency benchmarks measure
// the proxy, not a server. Its one tool has a typical input schema, so
// calls are checked against it.
func benchServer() int {
	r := bufio.NewReaderSize(os.Stdin, 1<<20)
	w := bufio.NewWriterSize(os.Stdout, 1<<20)
	answers := map[string]string{
		"initialize": `{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"bench","version":"1"}}`,
		"tools/list": `{"tools":[{"name":"search","description":"Search the documents.","inputSchema":{"type":"object","properties":{"query":{"type":"string","minLength":1},"limit":{"type":"integer","minimum":1,"maximum":100},"tags":{"type":"array","items":{"type":"string"}}},"required":["query"]}}]}`,
		"tools/call": `{"content":[{"type":"text","text":"3 documents found: alpha, beta, gamma."}]}`,
	}
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 {
			var m struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			if json.Unmarshal(line, &m) == nil && len(m.ID) > 0 {
				res, ok := answers[m.Method]
				if !ok {
					res = "{}"
				}
				fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", m.ID, res)
				_ = w.Flush()
			}
		}
		if err != nil {
			return 0
		}
	}
}
