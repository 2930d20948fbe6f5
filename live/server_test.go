package live

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpfit/mcplint/internal/testenv"
)

// The test binary doubles as the servers the tests talk to: with
// serverEnv set it runs the named server on stdin/stdout instead of the
// tests.
const serverEnv = "MCPLINT_LIVE_TEST_SERVER"

func TestMain(m *testing.M) { testenv.SelfServe(m, serverEnv, serve) }

// brokenServer is a go-sdk server publishing deliberately broken tools.
func brokenServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "broken-test-server", Version: "0.1.0"}, nil)
	h := func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{}, nil
	}
	// A name with a space (tool-name-valid).
	s.AddTool(&mcp.Tool{Name: "read file", Description: "Read a file.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`)}, h)
	// No description (description-present).
	s.AddTool(&mcp.Tool{Name: "count",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}}}`)}, h)
	// The SDK refuses to register a tool whose x-mcp-header is invalid, and
	// its client drops such tools from ListTools: publish one anyway, as a
	// server built otherwise would, by rewriting the list on its way out.
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			if lr, ok := res.(*mcp.ListToolsResult); ok && err == nil {
				cp := *lr
				cp.Tools = append(append([]*mcp.Tool(nil), lr.Tools...), &mcp.Tool{
					Name:        "send",
					Description: "Send a message to a region.",
					InputSchema: json.RawMessage(`{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region Name"}}}`),
				})
				return &cp, nil
			}
			return res, err
		}
	})
	return s
}

// serve runs the server named mode on stdio and returns the exit status.
func serve(mode string) int {
	if f := os.Getenv("MCPLINT_LIVE_TEST_STARTS"); f != "" {
		// One line per process started, for the tests that count them.
		if out, err := os.OpenFile(f, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
			fmt.Fprintln(out, os.Getpid())
			out.Close()
		}
	}
	if mode != "middle" {
		// A grandchild in the same process group proves it is stopped too.
		testenv.WritePIDs("MCPLINT_LIVE_TEST_PIDFILE", serverEnv, mode == "hang" || mode == "grandchild")
	}
	switch mode {
	case "broken":
		if err := brokenServer().Run(context.Background(), &mcp.StdioTransport{}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return 0
	case "sleep":
		time.Sleep(time.Hour)
		return 0
	case "crash":
		fmt.Fprintln(os.Stderr, "loading configuration")
		fmt.Fprintln(os.Stderr, "fatal: missing API_KEY")
		return 1
	case "hang", "grandchild":
		time.Sleep(time.Hour)
		return 0
	case "garbage":
		fmt.Println("Starting server on stdio...")
		fmt.Println("Ready.")
		time.Sleep(time.Hour)
		return 0
	case "lister":
		// A check that is about to be killed: it lists a server that
		// never answers.
		inner := os.Getenv("MCPLINT_LIVE_TEST_INNER_PIDFILE")
		_, err := List(context.Background(), Target{Command: []string{os.Args[0]},
			Env: []string{serverEnv + "=alone", "MCPLINT_LIVE_TEST_PIDFILE=" + inner}}, Options{})
		fmt.Fprintln(os.Stderr, err)
		return 1
	case "alone":
		// Only the pid file above: a server that starts nothing.
		time.Sleep(time.Hour)
		return 0
	case "silent":
		// Reads every request and never answers; ends when its input does.
		_, _ = io.Copy(io.Discard, os.Stdin)
		return 0
	case "echo":
		// What cat does.
		_, _ = io.Copy(os.Stdout, os.Stdin)
		return 0
	case "setsid", "orphan":
		// A grandchild in a session of its own, out of the process group:
		// kept as a child (setsid), or left behind by a parent that exits
		// at once (orphan: the middle process starts it and exits).
		grandchild := "sleep"
		if mode == "orphan" {
			grandchild = "middle"
		}
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), serverEnv+"="+grandchild)
		if mode == "setsid" {
			cmd.Env = append(cmd.Env, "MCPLINT_LIVE_TEST_PIDFILE=")
		}
		newSession(cmd)
		if err := cmd.Start(); err != nil {
			return 1
		}
		if mode == "orphan" {
			_ = cmd.Wait()
		} else {
			appendPid(cmd.Process.Pid)
		}
		time.Sleep(time.Hour)
		return 0
	case "middle":
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), serverEnv+"=sleep", "MCPLINT_LIVE_TEST_PIDFILE=")
		newSession(cmd)
		if err := cmd.Start(); err != nil {
			return 1
		}
		appendPid(cmd.Process.Pid)
		return 0
	}
	return rawServer(mode)
}

// appendPid adds a process to the pid file the test reads.
func appendPid(pid int) {
	f := os.Getenv("MCPLINT_LIVE_TEST_PIDFILE")
	if f == "" {
		return
	}
	b, _ := os.ReadFile(f)
	_ = os.WriteFile(f, append(b, []byte(" "+strconv.Itoa(pid))...), 0o644)
}

// size is the MCPLINT_LIVE_TEST_SIZE the misbehaving modes send.
func size() int {
	n, _ := strconv.Atoi(os.Getenv("MCPLINT_LIVE_TEST_SIZE"))
	return n
}

// rawServer answers JSON-RPC by hand, to misbehave in ways the SDK's server
// never would.
func rawServer(mode string) int {
	if mode == "noisy" {
		fmt.Println("noisy server 1.0 starting")
	}
	if strings.HasPrefix(mode, "stall-") {
		// Deaf to SIGTERM, as a server stuck in a system call can be:
		// only the kill ends it.
		signal.Ignore(syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
		if mode == "stall-close" {
			// Answers everything, then ignores the end of its input.
			defer time.Sleep(time.Hour)
		}
	}
	out := json.NewEncoder(os.Stdout)
	page := 0
	testenv.RPCLines(os.Stdin, func(req testenv.RPCRequest) {
		if req.Method == "" {
			return // the client's answer to a request of ours
		}
		var params struct {
			Cursor string         `json:"cursor"`
			Meta   map[string]any `json:"_meta"`
		}
		_ = json.Unmarshal(req.Params, &params)
		reply := map[string]any{"jsonrpc": "2.0", "id": req.ID}
		switch req.Method {
		case "server/discover":
			if mode != "dualera" {
				reply["error"] = map[string]any{"code": -32601, "message": "method not found: " + req.Method}
				break
			}
			reply["result"] = map[string]any{"resultType": "complete", "ttlMs": 0, "cacheScope": "public",
				"supportedVersions": []string{"2026-07-28"}, "capabilities": map[string]any{"tools": map[string]any{}},
				"_meta": map[string]any{"io.modelcontextprotocol/serverInfo": map[string]any{"name": "fault-" + mode, "version": "1.0.0"}}}
		case "initialize":
			version := "2025-06-18"
			if mode == "future" {
				version = "2099-01-01"
			}
			reply["result"] = map[string]any{
				"protocolVersion": version,
				"capabilities":    map[string]any{"tools": map[string]any{}},
				"serverInfo":      map[string]any{"name": "fault-" + mode, "version": "1.0.0"},
			}
		case "tools/list":
			page++
			tool := func(name string) map[string]any {
				return map[string]any{"name": name, "description": "Does " + name + ".", "inputSchema": map[string]any{"type": "object", "properties": map[string]any{}}}
			}
			switch mode {
			case "chatty":
				// A log line in JSON (pino's), one in text, requests to the
				// client and notifications, before the answer.
				fmt.Println(`{"level":30,"time":1,"msg":"listing tools"}`)
				fmt.Println("listing tools...")
				for _, m := range []string{
					`{"jsonrpc":"2.0","id":"s1","method":"ping"}`,
					`{"jsonrpc":"2.0","id":"s2","method":"roots/list"}`,
					`{"jsonrpc":"2.0","id":"s3","method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"hi"}}],"maxTokens":5}}`,
					`{"jsonrpc":"2.0","id":"s4","method":"elicitation/create","params":{"message":"Name?","requestedSchema":{"type":"object","properties":{}}}}`,
					`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}`,
					`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"listing"}}`,
					`{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`,
				} {
					fmt.Println(m)
				}
				reply["result"] = map[string]any{"tools": []any{tool("echo")}}
			case "dualera":
				// The era is the request's: modern requests carry _meta.
				if params.Meta != nil {
					reply["result"] = map[string]any{"tools": []any{tool("modern")}, "resultType": "complete", "ttlMs": 0, "cacheScope": "public"}
				} else {
					reply["result"] = map[string]any{"tools": []any{tool("legacy")}}
				}
			case "longline":
				// A line that never ends, then silence.
				_, _ = os.Stdout.Write(bytes.Repeat([]byte("a"), size()))
				time.Sleep(time.Hour)
			case "deep":
				// An answer nested deeper than encoding/json decodes.
				fmt.Printf(`{"jsonrpc":"2.0","id":%s,"result":{"tools":[{"name":"d","inputSchema":{"type":"object","default":%s%s}}]}}`+"\n",
					req.ID, strings.Repeat("[", 20000), strings.Repeat("]", 20000))
				return
			case "bigpage":
				reply["result"] = map[string]any{"tools": []any{map[string]any{"name": "big", "description": strings.Repeat("x", size()), "inputSchema": map[string]any{"type": "object"}}}}
			case "manytools":
				var tools []any
				for i := range size() {
					tools = append(tools, tool("t"+strconv.Itoa(i)))
				}
				reply["result"] = map[string]any{"tools": tools}
			case "leak":
				// A server that repeats what it was given.
				secret := os.Getenv("MCPLINT_LIVE_TEST_SECRET")
				fmt.Fprintln(os.Stderr, "starting with key "+secret)
				reply["error"] = map[string]any{"code": -32001, "message": "invalid key " + secret}
			case "stall-answer":
				// Answers the handshake, never the listing.
				time.Sleep(time.Hour)
			case "stall-line":
				// Starts the answer and stops in the middle of its line.
				fmt.Printf(`{"jsonrpc":"2.0","id":%s,"result":{"tools":[`, req.ID)
				time.Sleep(time.Hour)
			case "leakcut", "leakspelled":
				// The secret where a message is cut, or spelled with
				// escapes (a JSON escape, a URL's, in the message's text),
				// in the error of a second page: a failure (the first
				// page refused would be the list refused, a finding).
				if params.Cursor == "" {
					reply["result"] = map[string]any{"tools": []any{tool("t")}, "nextCursor": "p2"}
					break
				}
				secret := os.Getenv("MCPLINT_LIVE_TEST_SECRET")
				msg := strings.Repeat("x", size()) + secret + " was refused"
				if mode == "leakspelled" {
					msg = `invalid key \u00` + fmt.Sprintf("%x", secret[0]) + secret[1:3] + "%" + fmt.Sprintf("%X", secret[3]) + secret[4:]
				}
				fmt.Fprintln(os.Stderr, msg)
				reply["error"] = map[string]any{"code": -32001, "message": msg}
			case "rpcerror":
				reply["error"] = map[string]any{"code": -32603, "message": "database unavailable"}
			case "notlist":
				reply["result"] = map[string]any{"items": []any{}}
			case "endless":
				reply["result"] = map[string]any{"tools": []any{tool("t" + strconv.Itoa(page))}, "nextCursor": "c" + strconv.Itoa(page)}
			case "repeat":
				reply["result"] = map[string]any{"tools": []any{tool("t")}, "nextCursor": "same"}
			case "paged":
				// Two pages; the order of the second listing differs.
				switch params.Cursor {
				case "":
					names := []string{"alpha", "beta"}
					if page > 2 {
						names = []string{"beta", "alpha"}
					}
					reply["result"] = map[string]any{"tools": []any{tool(names[0]), tool(names[1])}, "nextCursor": "p2"}
				default:
					reply["result"] = map[string]any{"tools": []any{tool("gamma")}}
				}
			default:
				reply["result"] = map[string]any{"tools": []any{tool("echo")}}
			}
		default:
			if strings.Contains(req.Method, "/") && req.Method != "ping" {
				reply["error"] = map[string]any{"code": -32601, "message": "method not found: " + req.Method}
			} else {
				reply["result"] = map[string]any{}
			}
		}
		_ = out.Encode(reply)
	})
	return 0
}
