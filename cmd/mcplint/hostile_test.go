package main

// The hostile-input suite: every attack of a file or a server that nobody
// reviewed, generated here (no large file is stored), with the exit status
// and the one line it must end with. Memory and time bounds are checked by
// BenchmarkHostile, never here.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpfit/mcplint/atomicfile"
	"github.com/mcpfit/mcplint/internal/benchgen"
	"github.com/mcpfit/mcplint/internal/testenv"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/live"
)

// hostileServer runs the misbehaving stdio servers; ok is false for a
// mode it does not know.
func hostileServer(mode string) (code int, ok bool) {
	// The size is an argument: a value given with --env would be masked in
	// the messages, as secrets are.
	var size int
	for _, a := range os.Args[1:] {
		if n, ok := strings.CutPrefix(a, "size="); ok {
			size, _ = strconv.Atoi(n)
		}
	}
	secret := os.Getenv("MCPLINT_CHECK_TEST_SECRET")
	switch mode {
	case "silent":
		// Reads every request, never answers, ends with its input.
		_, _ = io.Copy(io.Discard, os.Stdin)
		return 0, true
	case "cat":
		_, _ = io.Copy(os.Stdout, os.Stdin)
		return 0, true
	case "sleep":
		time.Sleep(time.Hour)
		return 0, true
	case "setsid":
		// A grandchild in a session of its own, then a working server.
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), checkServerEnv+"=sleep")
		newSession(cmd)
		if err := cmd.Start(); err != nil {
			return 1, true
		}
		pids := strconv.Itoa(os.Getpid()) + " " + strconv.Itoa(cmd.Process.Pid)
		_ = os.WriteFile(os.Getenv("MCPLINT_CHECK_TEST_PIDFILE"), []byte(pids), 0o644)
		if err := testServer().Run(context.Background(), &mcp.StdioTransport{}); err != nil {
			return 1, true
		}
		return 0, true
	case "longline", "bigpage", "manytools", "schemapages", "leak", "leakerror", "leakspelled", "leaknumber":
	default:
		return guardServer(mode)
	}
	if mode == "leak" || mode == "leakerror" {
		fmt.Fprintln(os.Stderr, "starting with key "+secret)
	}
	out := bufio.NewWriter(os.Stdout)
	testenv.RPCLines(os.Stdin, func(req testenv.RPCRequest) {
		reply := map[string]any{"jsonrpc": "2.0", "id": req.ID}
		tool := func(name, desc string) map[string]any {
			return map[string]any{"name": name, "description": desc, "inputSchema": map[string]any{"type": "object"}}
		}
		switch req.Method {
		case "initialize":
			reply["result"] = map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{"tools": map[string]any{}},
				"serverInfo": map[string]any{"name": "hostile", "version": "1"}}
		case "tools/list":
			switch mode {
			case "longline":
				// Written a megabyte at a time, to cost this process
				// nothing whatever the size.
				chunk := bytes.Repeat([]byte("a"), 1<<20)
				for left := size; left > 0; left -= len(chunk) {
					if _, err := out.Write(chunk[:min(left, len(chunk))]); err != nil {
						os.Exit(0)
					}
				}
				out.Flush()
				time.Sleep(time.Hour)
			case "bigpage", "manytools":
				// Streamed, to cost this process little whatever the size
				// (the benchmark measures mcplint's memory, which its
				// children's peak would hide).
				fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":{"tools":[`, req.ID)
				if mode == "bigpage" {
					out.WriteString(`{"name":"big","inputSchema":{"type":"object"},"description":"`)
					for left := size; left > 0; left -= 1 << 16 {
						out.WriteString(strings.Repeat("x", min(left, 1<<16)))
					}
					out.WriteString(`"}`)
				} else {
					for i := range size {
						if i > 0 {
							out.WriteByte(',')
						}
						fmt.Fprintf(out, `{"name":"t%d","inputSchema":{}}`, i)
					}
				}
				out.WriteString("]}}\n")
				out.Flush()
				return
			case "schemapages":
				// size bytes of tools, each one tool of many properties on a
				// page of its own of some 8 MiB, streamed.
				var params struct {
					Cursor string `json:"cursor"`
				}
				_ = json.Unmarshal(req.Params, &params)
				page, _ := strconv.Atoi(params.Cursor)
				const perPage = 8 << 20
				fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":{"tools":[{"name":"big%d","description":"Big.","inputSchema":{"type":"object","properties":{`, req.ID, page)
				for n, i := 0, 0; n < perPage; i++ {
					if i > 0 {
						out.WriteByte(',')
					}
					k, _ := fmt.Fprintf(out, `"p%d":{"type":"string","description":"A field."}`, i)
					n += k + 1
				}
				out.WriteString(`}}}]`)
				if (page+2)*perPage <= size {
					fmt.Fprintf(out, `,"nextCursor":"%d"`, page+1)
				}
				out.WriteString("}}\n")
				out.Flush()
				return
			case "leak":
				reply["result"] = map[string]any{"tools": []any{tool("leak_"+secret, "Uses the key "+secret+".")}}
			case "leakspelled":
				// The secret in the spellings JSON and URLs allow, written
				// by hand: a one-line tool each, whose bad name puts the
				// line in the code frame.
				fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":{"tools":[`, req.ID)
				for i, spelled := range spellings(secret) {
					if i > 0 {
						out.WriteByte(',')
					}
					fmt.Fprintf(out, `{"name":"bad name %d","description":"Key %s.","inputSchema":{"type":"object"}}`, i, spelled)
				}
				out.WriteString("]}}\n")
				out.Flush()
				return
			case "leaknumber":
				// A secret of digits that the listing holds as a number.
				reply["result"] = map[string]any{"tools": []any{map[string]any{"name": "limited", "description": "Limit " + secret + ".",
					"inputSchema": map[string]any{"type": "object", "properties": map[string]any{"n": map[string]any{"type": "integer", "maximum": json.Number(secret)}}}}}}
			case "leakerror":
				reply["error"] = map[string]any{"code": -32001, "message": "invalid key " + secret}
			}
		default:
			reply["result"] = map[string]any{}
		}
		b, _ := json.Marshal(reply)
		out.Write(append(b, '\n'))
		out.Flush()
	})
	return 0, true
}

// attack is one hostile input and how mcplint must end.
type attack struct {
	name string
	args []string
	code int
	// line is the line the output must hold (on standard error for a
	// failure).
	line string
}

func runAttacks(t *testing.T, attacks []attack) {
	t.Helper()
	for _, a := range attacks {
		t.Run(a.name, func(t *testing.T) {
			r := mcplint(t, runOpts{}, a.args...)
			r.want(t, a.code)
			if !strings.Contains(r.stderr+r.stdout, a.line) {
				t.Errorf("output lacks %q:\nstderr:\n%s\nstdout:\n%.2000s", a.line, r.stderr, r.stdout)
			}
		})
	}
}

func writeTemp(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// deepYAML is n tools, each nested depth levels deep in flow style.
func deepYAML(n, depth int) string {
	var b strings.Builder
	b.WriteString("tools:\n")
	for i := range n {
		fmt.Fprintf(&b, "  - name: t%d\n    inputSchema: %s1%s\n", i, strings.Repeat("{a: ", depth), strings.Repeat("}", depth))
	}
	return b.String()
}

// aliasedYAML aliases a string of size bytes n times.
func aliasedYAML(size, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "x: &s %s\ntools:\n  - name: t\n    description: d\n    inputSchema:\n      type: object\n      properties:\n", strings.Repeat("a", size))
	for i := range n {
		fmt.Fprintf(&b, "        p%d: {type: string, description: *s}\n", i)
	}
	return b.String()
}

// refGraph is a tool whose definitions each refer twice to the next and
// have pad properties of their own: inlined, it holds 2^levels copies of
// the last.
func refGraph(levels, pad int) string {
	defs := map[string]any{}
	for i := range levels {
		props := map[string]any{"left": map[string]any{"$ref": fmt.Sprintf("#/$defs/d%d", i+1)}, "right": map[string]any{"$ref": fmt.Sprintf("#/$defs/d%d", i+1)}}
		for j := range pad {
			props[fmt.Sprintf("p%d", j)] = map[string]any{"type": "string", "description": "A field."}
		}
		defs[fmt.Sprintf("d%d", i)] = map[string]any{"type": "object", "properties": props}
	}
	defs[fmt.Sprintf("d%d", levels)] = map[string]any{"type": "string"}
	b, _ := json.Marshal(map[string]any{"tools": []any{map[string]any{"name": "t", "description": "Takes root.",
		"inputSchema": map[string]any{"type": "object", "properties": map[string]any{"root": map[string]any{"$ref": "#/$defs/d0"}}, "$defs": defs}}}})
	return string(b)
}

// refWide is a tool of refs properties that all point to one property of
// size properties: inlined, it is refs times as large.
func refWide(refs, size int) string {
	big := map[string]any{}
	for j := range size {
		big[fmt.Sprintf("p%d", j)] = map[string]any{"type": "string"}
	}
	props := map[string]any{"big": map[string]any{"type": "object", "properties": big}}
	for i := range refs {
		props[fmt.Sprintf("r%d", i)] = map[string]any{"$ref": "#/properties/big"}
	}
	b, _ := json.Marshal(map[string]any{"tools": []any{map[string]any{"name": "t", "description": "Takes many.",
		"inputSchema": map[string]any{"type": "object", "properties": props}}}})
	return string(b)
}

// manyFindings is n tools, each with an input schema that is no object.
func manyFindings(n int) string {
	var b strings.Builder
	b.WriteString(`{"tools": [`)
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"name": "t%d", "description": "Does t.", "inputSchema": 1}`, i)
	}
	b.WriteString("]}")
	return b.String()
}

// configBomb is a configuration whose anchors stand for 9^9 strings, 1.5
// GB of JSON, in 324 bytes.
func configBomb() string {
	var b strings.Builder
	b.WriteString(`a: &a ["x","x","x","x","x","x","x","x","x"]` + "\n")
	for i := 1; i < 9; i++ {
		p, n := string(rune('a'+i-1)), string(rune('a'+i))
		b.WriteString(n + ": &" + n + " [" + strings.TrimSuffix(strings.Repeat("*"+p+",", 9), ",") + "]\n")
	}
	return b.String()
}

// refRing is a tool whose $defs chain n references (benchgen.RefRing),
// back to the first when cycle is set.
func refRing(n int, cycle bool) string {
	b, _ := json.Marshal(map[string]any{"tools": []any{map[string]any{"name": "t", "description": "Takes p.", "inputSchema": benchgen.RefRing(n, cycle)}}})
	return string(b)
}

func TestHostileFiles(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	big := writeTemp(t, "big.json", `{"tools": [`+strings.Repeat(`{"name": "t", "inputSchema": {"type": "object"}},`, 40000)+`{"name": "t"}]}`)
	runAttacks(t, []attack{
		{"endless input", []string{"lint", "--max-file-size=1MiB", "/dev/zero"}, 2,
			"mcplint: /dev/zero: the input is larger than the limit of 1 MiB; split the tool list (raise the limit with --max-file-size)"},
		{"file over the size limit", []string{"lint", "--max-file-size=1MiB", big}, 2,
			"big.json: the input is larger than the limit of 1 MiB; split the tool list (raise the limit with --max-file-size)"},
		{"YAML nested 9,990 deep", []string{"lint", writeTemp(t, "deep.yaml", deepYAML(30, 9990))}, 2,
			"deep.yaml:3:4038: nesting deeper than 1000 levels; raise the limit with --max-depth"},
		{"YAML nested past a lowered limit", []string{"lint", "--max-depth=20", writeTemp(t, "deep.yaml", deepYAML(1, 21))}, 2,
			"nesting deeper than 20 levels; raise the limit with --max-depth"},
		{"YAML aliases standing for too much", []string{"convert", "--to=openai", "--max-yaml-expansion=1MiB", writeTemp(t, "bomb.yaml", aliasedYAML(64<<10, 32))}, 2,
			"bomb.yaml:23:42: aliases stand for more than 1 MiB"},
		{"YAML aliases, the message", []string{"convert", "--to=openai", "--max-yaml-expansion=1MiB", writeTemp(t, "bomb.yaml", aliasedYAML(64<<10, 32))}, 2,
			"aliases stand for more than 1 MiB of values (the alias here passes the limit); write the values out if that is meant (raise the limit with --max-yaml-expansion)"},
		{"YAML over the YAML size limit", []string{"lint", "--max-yaml-size=64KiB", writeTemp(t, "big.yaml", deepYAML(2000, 1))}, 2,
			"the YAML source is larger than the limit of 64 KiB for YAML (parsing YAML takes many times its size in memory); split it, or write it as JSON (raise the limit with --max-yaml-size)"},
		{"YAML of too many tokens", []string{"lint", "--max-yaml-tokens=1000", writeTemp(t, "many.yaml", deepYAML(200, 1))}, 2,
			"the YAML source has more than 1000 tokens (keys, values and punctuation); split it, or write it as JSON (raise the limit with --max-yaml-tokens)"},
		{"a cycle of 1,500 references", []string{"lint", "--select=ref-resolvable", writeTemp(t, "cycle.json", refRing(1500, true))}, 1,
			"1 error, 0 warnings"},
		{"a configuration of 324 bytes of YAML anchors", []string{"lint", "--config", writeTemp(t, ".mcplint.yaml", configBomb()), big}, 2,
			".mcplint.yaml:7:26: aliases stand for more than 16 MiB of values (the alias here passes the limit); write the values out if that is meant"},
		{"references that inline into gigabytes", []string{"convert", "--to=gemini", "--max-ref-expansion=1MiB", writeTemp(t, "graph.json", refGraph(24, 20))}, 2,
			`: tool "t" /inputSchema/$defs/d`},
		{"references that inline into gigabytes, the message", []string{"convert", "--to=gemini", "--max-ref-expansion=1MiB", writeTemp(t, "graph.json", refGraph(24, 20))}, 2,
			`the references of the schema stand for more than 1 MiB of JSON once inlined ("#/$defs/d`},
		{"references that inline into gigabytes, the flag", []string{"convert", "--to=openai", "--strict", "--max-ref-expansion=1MiB", writeTemp(t, "wide.json", refWide(1000, 500))}, 2,
			"the schema is too large to write without references; raise the limit with --max-ref-expansion"},
		{"references that inline into gigabytes, linted", []string{"lint", "--select=gemini-ref", "--max-ref-expansion=1MiB", writeTemp(t, "graph.json", refGraph(24, 20))}, 1,
			"inline the schema it points to; no fix is offered: inlined, the references stand for more than 1 MiB of JSON, the limit (--max-ref-expansion)"},
		{"findings held past the limit", []string{"lint", "--format=sarif", "--max-findings=1000", writeTemp(t, "many.json", manyFindings(2000))}, 2,
			"many.json: more than 1000 findings, the limit for a report held whole in memory; narrow the selection (--select, --ignore), or write one text or JSON report to standard output, which is written as it goes (raise the limit with --max-findings)"},
		{"findings held past the limit, fixed", []string{"fix", "--max-findings=1000", writeTemp(t, "many.json", manyFindings(2000))}, 2,
			"more than 1000 findings"},
		{"findings streamed past the limit", []string{"lint", "--max-findings=1000", writeTemp(t, "many.json", manyFindings(2000))}, 1,
			"2000 errors"},
		{"a bad size", []string{"lint", "--max-file-size=lots", big}, 2, `"lots" is not a size`},
		{"a bad depth", []string{"lint", "--max-depth=0", big}, 2, "--max-depth: 0 is not between 1 and 10000"},
	})
	// The cycle is reported whole, at its first member.
	r := mcplint(t, runOpts{}, "lint", "--select=ref-resolvable", "--format=json", writeTemp(t, "cycle.json", refRing(1500, true)))
	if !strings.Contains(r.stdout, `"message": "$ref cycle #/$defs/d0 -> #/$defs/d1 -> `) || !strings.Contains(r.stdout, `#/$defs/d1499 -> #/$defs/d0: a validator`) {
		t.Errorf("the cycle of 1,500 references:\n%.2000s", r.stdout)
	}
}

// TestHostileFixWrite: fix -w writes every file or none.
func TestHostileFixWrite(t *testing.T) {
	dir := t.TempDir()
	a := copyFile(t, "fixable.json", dir, "a.json", 0o644)
	b := copyFile(t, "invalid.json", dir, "b.json", 0o644)
	src, _ := os.ReadFile(a)
	r := mcplint(t, runOpts{}, "fix", "--select=test", "-w", a, b)
	r.want(t, 2)
	if !strings.Contains(r.stderr, "mcplint: no file was written: 1 of 2 files could not be fixed, and -w writes every file or none\n") {
		t.Errorf("stderr:\n%s", r.stderr)
	}
	if got, _ := os.ReadFile(a); !bytes.Equal(got, src) {
		t.Error("a.json was written although b.json could not be fixed")
	}

	// A file changed since it was read, and an interrupted run.
	e := &env{stdout: io.Discard, stderr: io.Discard}
	var batch atomicfile.Batch
	batch.Add(a, []byte("what was read"), []byte("fixed"))
	err := e.commit(context.Background(), &batch)
	if err == nil || err.Error() != a+" changed since it was read (another program wrote it); no file was written: run mcplint fix again" {
		t.Errorf("changed: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	batch = atomicfile.Batch{}
	batch.Add(a, src, []byte("fixed"))
	if err := e.commit(ctx, &batch); err == nil || err.Error() != "interrupted: no file was written" {
		t.Errorf("interrupted: %v", err)
	}
	if got, _ := os.ReadFile(a); !bytes.Equal(got, src) {
		t.Error("a.json was written")
	}
}

// sized is the command line of a hostile server sending n of something.
func sized(n int) []string { return []string{"--", os.Args[0], "size=" + strconv.Itoa(n)} }

func TestHostileServers(t *testing.T) {
	hugeJSON := httptest.NewServer(hugeAnswer(3 << 20))
	defer hugeJSON.Close()
	runAttacks(t, []attack{
		{"a line without end", append([]string{"check", "--max-message-size=1MiB", serverEnvFlag("longline")}, sized(3<<20)...), 3,
			"mcplint: the server sent a line on stdout larger than the limit of 1 MiB for one message; it was not read further (raise the limit with --max-message-size)"},
		{"a 40 MB answer", append([]string{"check", serverEnvFlag("bigpage")}, sized(40<<20)...), 3,
			"mcplint: the server sent a line on stdout larger than the limit of 16 MiB for one message; it was not read further (raise the limit with --max-message-size)"},
		{"an HTTP body over the limit", []string{"check", "--max-message-size=1MiB", "--url", hugeJSON.URL}, 3,
			"mcplint: the server sent an HTTP response larger than the limit of 1 MiB for one message; it was not read further (raise the limit with --max-message-size)"},
		{"one page of 100,001 tools", append([]string{"check", serverEnvFlag("manytools")}, sized(100001)...), 3,
			"mcplint: tools/list returned more than 100000 tools, the limit (100001 on 1 page) (raise the limit with --max-tools)"},
		{"a list over the size limit", append([]string{"check", "--max-list-size=64KiB", serverEnvFlag("manytools")}, sized(5000)...), 3,
			"mcplint: the tools/list results are larger than the limit of 64 KiB (1 page so far) (raise the limit with --max-list-size)"},
		{"reads and never answers", []string{"check", "--timeout=1s", serverEnvFlag("silent"), "--", os.Args[0]}, 3,
			"mcplint: the server did not answer before the timeout (raise the limit with --timeout)"},
		{"cat", []string{"check", "--", "cat"}, 3,
			"request back instead of answering it: it does not speak MCP (a command that copies its input, such as cat, does this)"},
	})
}

// hugeAnswer is a Streamable HTTP endpoint whose tools/list answer is n
// bytes of JSON.
func hugeAnswer(n int) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		body, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(body, &req)
		if req.ID == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		switch req.Method {
		case "initialize":
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"huge","version":"1"}}}`, req.ID)
		case "tools/list":
			// Streamed a megabyte at a time, to cost this process nothing.
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"tools":[{"name":"t","inputSchema":{"type":"object"},"description":"`, req.ID)
			chunk := bytes.Repeat([]byte("x"), 1<<20)
			for left := n; left > 0; left -= len(chunk) {
				if _, err := w.Write(chunk[:min(left, len(chunk))]); err != nil {
					return
				}
			}
			io.WriteString(w, `"}]}}`)
		default:
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{}}`, req.ID)
		}
	})
}

// TestHostileTimeoutBoundsTheRun: --timeout bounds the whole check, its
// clean-up included. A server that stalls every request from tools/list
// on in the middle of its headers, the cancellation notice and the
// session's closing DELETE included, held a check given 1s for six: the
// DELETE alone was waited for five seconds.
func TestHostileTimeoutBoundsTheRun(t *testing.T) {
	done := make(chan struct{})
	var stalled atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if stalled.Load() || strings.Contains(string(body), `"tools/list"`) {
			stalled.Store(true)
			c, buf, err := w.(http.Hijacker).Hijack()
			if err != nil {
				return
			}
			buf.WriteString("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n")
			buf.Flush()
			<-done
			c.Close()
			return
		}
		w.Header().Set("Mcp-Session-Id", "s1")
		r.Body = io.NopCloser(bytes.NewReader(body))
		hugeAnswer(0).ServeHTTP(w, r)
	}))
	defer srv.Close()
	defer close(done)
	start := time.Now()
	r := mcplint(t, runOpts{}, "check", "--timeout=1s", "--url", srv.URL)
	took := time.Since(start)
	r.want(t, 3)
	if !strings.Contains(r.stderr, "mcplint: the server did not answer before the timeout (raise the limit with --timeout)") {
		t.Errorf("stderr:\n%s", r.stderr)
	}
	if bound := time.Second + live.Grace + 2500*time.Millisecond; took > bound {
		t.Errorf("the check took %v, past its timeout of 1s and the grace of %v", took, live.Grace)
	}
}

// TestHostileTimeoutBoundsLinting: --timeout bounds the whole check, the
// linting of what the server listed included.
func TestHostileTimeoutBoundsLinting(t *testing.T) {
	slow := &lint.Rule{ID: "slow", Packs: []string{"mcp"}, Summary: "takes its time", Check: func(*lint.Pass) { time.Sleep(200 * time.Millisecond) }}
	var out, errOut bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, getenv: func(string) string { return "" }, catalogue: []*lint.Rule{slow}}
	code := e.run(context.Background(), append([]string{"mcplint", "check", "--select=slow", "--timeout=2s", serverEnvFlag("manytools")}, sized(100)...))
	if code != 3 || !strings.Contains(errOut.String(), "mcplint: the server answered, but linting its 100 tools did not end before the timeout (raise the limit with --timeout)") {
		t.Errorf("exit %d, stderr:\n%s", code, errOut.String())
	}
}

// TestHostileProcesses: a grandchild that started its own session does not
// survive a check that went well.
func TestHostileProcesses(t *testing.T) {
	pidfile := filepath.Join(t.TempDir(), "pids")
	r := mcplint(t, runOpts{}, "check", naming, serverEnvFlag("setsid"), "--env=MCPLINT_CHECK_TEST_PIDFILE="+pidfile, "--", os.Args[0])
	r.want(t, 0)
	b, _ := os.ReadFile(pidfile)
	pids := strings.Fields(string(b))
	if len(pids) != 2 {
		t.Fatalf("pids %q", pids)
	}
	for _, f := range pids {
		pid, _ := strconv.Atoi(f)
		deadline := time.Now().Add(3 * time.Second)
		for running(pid) && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if running(pid) {
			t.Errorf("process %d survived the check", pid)
			killProcess(pid)
		}
	}
}

// running reports whether pid is a process that has not exited.
func running(pid int) bool {
	if !processExists(pid) {
		return false
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return !(i > 0 && i+2 < len(s) && s[i+2] == 'Z')
}

// TestHostileSecrets: a header value, a URL's query value and values from
// the environment reach no output of any format, the saved listing and the
// step summary included, even when the server repeats them in its name,
// its tools and its errors.
func TestHostileSecrets(t *testing.T) {
	const (
		token = "tok-SECRET-4242" // a header value, from $TOKEN
		key   = "key-SECRET-4343" // a query value of the URL
		value = "env-SECRET-4444" // an --env value, and a ${VAR} of a client configuration
	)
	s := mcp.NewServer(&mcp.Implementation{Name: "leaky " + token, Version: "1"}, nil)
	s.AddTool(&mcp.Tool{Name: "leak_" + token, Description: "Sends " + token + " and " + key + ".",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer","description":"` + key + `"}}}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{}, nil
		})
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+token {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	}))
	defer srv.Close()
	url := srv.URL + "/mcp?api_key=" + key

	dir := t.TempDir()
	summary := filepath.Join(dir, "summary.md")
	env := map[string]string{"TOKEN": token, "VALUE": value, "KEY": key, "GITHUB_STEP_SUMMARY": summary}
	header := "Authorization: Bearer $TOKEN"
	var seen strings.Builder
	run := func(args ...string) {
		r := mcplint(t, runOpts{env: env}, args...)
		if r.code == 2 {
			t.Errorf("%v: exit 2\n%s", args, r.stderr)
		}
		seen.WriteString(r.stdout + r.stderr)
	}
	save := filepath.Join(dir, "saved.jsonl")
	for _, f := range []string{"text", "json"} {
		run("check", "--format="+f, "--url", url, "--header", header, "--save", save)
		b, _ := os.ReadFile(save)
		seen.Write(b)
		run("check", "--format="+f, "--env=MCPLINT_CHECK_TEST_SECRET="+value, serverEnvFlag("leak"), "--", os.Args[0])
		run("check", "--format="+f, "--env=MCPLINT_CHECK_TEST_SECRET="+value, serverEnvFlag("leakerror"), "--", os.Args[0])
	}
	old := writeTemp(t, "old.json", `{"tools": []}`)
	for _, f := range reportFormats {
		run("breaking", "--against", old, "--format="+f, "--url", url, "--header", header)
		// The same formats written to files (--format FORMAT=PATH).
		path := filepath.Join(dir, "report."+f)
		run("check", "--format=text", "--format="+f+"="+path, "--env=MCPLINT_CHECK_TEST_SECRET="+value, serverEnvFlag("leak"), "--", os.Args[0])
		b, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("--format %s=PATH wrote nothing: %v", f, err)
		}
		seen.Write(b)
	}
	if b, err := os.ReadFile(summary); err != nil || len(b) == 0 {
		t.Errorf("no step summary: %v", err)
	} else {
		seen.Write(b)
	}
	// A client configuration: ${VAR} in the URL, the headers and the
	// environment of a stdio server.
	cfg := writeTemp(t, "mcp.json", fmt.Sprintf(`{"mcpServers": {
		"http": {"url": %q, "headers": {"Authorization": "Bearer ${TOKEN}"}},
		"stdio": {"command": %q, "env": {%q: "leakerror", "MCPLINT_CHECK_TEST_SECRET": "${VALUE}"}}
	}}`, srv.URL+"/mcp?api_key=${KEY}", os.Args[0], checkServerEnv))
	for _, f := range []string{"text", "json"} {
		run("check", "--format="+f, "--client-config", cfg)
	}
	out := seen.String()
	for _, secret := range []string{token, key, value} {
		if i := strings.Index(out, secret); i >= 0 {
			t.Errorf("%s is shown: …%s…", secret, out[max(0, i-200):min(len(out), i+100)])
		}
	}
	for _, want := range []string{"leak_***", "server leaky *** 1", "invalid key ***", "api_key=***"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in the outputs: the secrets did not reach them, and the test proves nothing", want)
		}
	}
}

// TestHostileBasicCredentials: a server that echoes the Authorization
// header it received shows neither the URL's user information nor a
// --header's Basic credentials, in either spelling.
func TestHostileBasicCredentials(t *testing.T) {
	h := mcp.NewStreamableHTTPHandler(func(r *http.Request) *mcp.Server {
		auth := r.Header.Get("Authorization")
		user, pass, _ := r.BasicAuth()
		return mcp.NewServer(&mcp.Implementation{Name: "echo " + auth + " " + user + ":" + pass, Version: "1"}, nil)
	}, nil)
	srv := httptest.NewServer(h)
	defer srv.Close()
	withUser := strings.Replace(srv.URL, "http://", "http://alice:hunter22x@", 1) + "/mcp"
	basic := "Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte("bob:pa55word-x"))
	for _, args := range [][]string{{"--url", withUser}, {"--url", srv.URL + "/mcp", "--header", basic}} {
		r := mcplint(t, runOpts{}, append([]string{"check", "--format=text"}, args...)...)
		out := r.stdout + r.stderr
		if !strings.Contains(out, "server echo ") || !strings.Contains(out, "***") {
			t.Errorf("%v: the echo did not reach the output, and the test proves nothing:\n%s", args, out)
		}
		for _, secret := range []string{"hunter22x", "pa55word-x", "YWxpY2U6aHVudGVyMjJ4", "Ym9iOnBhNTV3b3JkLXg="} {
			if strings.Contains(out, secret) {
				t.Errorf("%v: %s is shown:\n%s", args, secret, out)
			}
		}
	}
}
