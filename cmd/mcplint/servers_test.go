package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcpfit/mcplint/internal/testenv"
)

// The real-server set: popular MCP servers at pinned versions, each
// listed once with `mcplint check --save` and kept in
// live/testdata/servers/NAME: server.txt says what was run, at which
// version and when; listing.jsonl is what the server listed (and
// listing.2025-11-25.jsonl what clients of the initialize era see, for a
// server of 2026-07-28 that answers both), with long descriptions
// reduced; verdicts.txt is lint's findings on each listing with the
// default selection, reviewed. The tests lint each listing and hold it
// to its verdicts, and to what every real server must get: no finding
// of the security pack on a vendor's own server (none shows an attack),
// and no finding about a list the server does not declare.

var reduce = flag.Bool("reduce", false, "reduce the long descriptions of the listings recorded in live/testdata/servers, in place, and write their verdicts.txt (read every change before committing it)")

// serversDir holds the real-server set.
const serversDir = "live/testdata/servers"

// keptDescription is how many characters of a description a recorded
// listing keeps: a listing is the server's, and its prose is not ours to
// copy at length.
const keptDescription = 160

// openaiDescription is the length past which a description draws
// openai-description-length: a reduced description that was longer is
// padded back to its length, so that the verdicts stay the server's.
const openaiDescription = 1024

// reduceListing shortens every "description" and "instructions" string
// of a saved listing (one JSON document a line) to its first
// keptDescription characters and a mark, keeping everything else as it
// was, member order and number spelling included.
func reduceListing(src []byte) ([]byte, error) {
	var out bytes.Buffer
	s := bufio.NewScanner(bytes.NewReader(src))
	s.Buffer(make([]byte, 1<<20), 64<<20)
	for s.Scan() {
		if len(bytes.TrimSpace(s.Bytes())) == 0 {
			continue
		}
		dec := jsontext.NewDecoder(bytes.NewReader(s.Bytes()))
		enc := jsontext.NewEncoder(&out, jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true))
		reduceNext := false
		for {
			tok, err := dec.ReadToken()
			if err != nil {
				break
			}
			if tok.Kind() == '"' {
				str := tok.String()
				if reduceNext {
					tok = jsontext.String(reducedText(str))
				}
				// A string is a member name when the decoder stands at
				// an object's value next.
				reduceNext = isName(dec) && (str == "description" || str == "instructions")
			} else {
				reduceNext = false
			}
			if err := enc.WriteToken(tok); err != nil {
				return nil, err
			}
		}
	}
	return out.Bytes(), s.Err()
}

// isName says whether the token just read was an object member's name.
func isName(dec *jsontext.Decoder) bool {
	kind, length := dec.StackIndex(dec.StackDepth())
	return kind == '{' && length%2 == 1
}

// reducedText is s cut to keptDescription characters and marked, padded
// back to its length when that was over openaiDescription.
func reducedText(s string) string {
	n := utf8.RuneCountInString(s)
	if n <= keptDescription {
		return s
	}
	mark := fmt.Sprintf(" [%d characters; reduced]", n)
	cut := []rune(s)[:keptDescription-len(mark)]
	out := string(cut) + mark
	if n > openaiDescription {
		out += strings.Repeat(".", n-utf8.RuneCountInString(out))
	}
	return out
}

// recordedServer is one server of the set.
type recordedServer struct {
	name     string
	dir      string
	official bool     // the vendor's own server
	listings []string // listing.jsonl first
}

func recordedServers(t *testing.T) []recordedServer {
	t.Helper()
	root := filepath.Join(testenv.RepoRoot(t), serversDir)
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var out []recordedServer
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		dir := filepath.Join(root, e.Name())
		info, err := os.ReadFile(filepath.Join(dir, "server.txt"))
		if err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		s := recordedServer{name: e.Name(), dir: dir, official: bytes.Contains(info, []byte("\nofficial: yes"))}
		for _, field := range []string{"package:", "version:", "recorded:", "command:"} {
			if !bytes.Contains(info, []byte("\n"+field)) && !bytes.HasPrefix(info, []byte(field)) {
				t.Errorf("%s/server.txt has no %q line", e.Name(), field)
			}
		}
		listings, _ := filepath.Glob(filepath.Join(dir, "listing*.jsonl"))
		slices.SortFunc(listings, func(a, b string) int { return len(a) - len(b) })
		if len(listings) == 0 || filepath.Base(listings[0]) != "listing.jsonl" {
			t.Fatalf("%s: no listing.jsonl", e.Name())
		}
		s.listings = listings
		out = append(out, s)
	}
	return out
}

// lintVerdicts lints a recorded listing and returns its findings, one
// "SEVERITY RULE SUBJECT" line each, SUBJECT being the tool ("-" for
// none), counted and sorted.
func lintVerdicts(t *testing.T, path string, flags ...string) []string {
	t.Helper()
	r := mcplint(t, runOpts{}, append(append([]string{"lint", "--format=json", "--fail-on=never"}, flags...), path)...)
	r.want(t, 0)
	var rep struct {
		Diagnostics []struct{ Rule, Severity, Tool string }
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	counts := map[string]int{}
	for _, d := range rep.Diagnostics {
		tool := d.Tool
		if tool == "" {
			tool = "-"
		}
		counts[d.Severity+" "+d.Rule+" "+tool]++
	}
	var out []string
	for k, n := range counts {
		out = append(out, fmt.Sprintf("%s ×%d", k, n))
	}
	slices.Sort(out)
	return out
}

func TestRecordedServers(t *testing.T) {
	servers := recordedServers(t)
	// The conformance suite's example servers (conformance-*) are the
	// MCP project's; the others come from npm.
	npm := 0
	for _, s := range servers {
		if !strings.HasPrefix(s.name, "conformance-") {
			npm++
		}
	}
	if npm < 12 {
		t.Errorf("%d servers from npm recorded, want at least 12", npm)
	}
	for _, s := range servers {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			var got []string
			for _, path := range s.listings {
				src, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				if *reduce {
					if src, err = reduceListing(src); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(path, src, 0o644); err != nil {
						t.Fatal(err)
					}
				} else if reduced, err := reduceListing(src); err != nil || !bytes.Equal(reduced, src) {
					t.Errorf("%s keeps descriptions longer than %d characters (run the test with -reduce): %v", path, keptDescription, err)
				}
				for _, v := range lintVerdicts(t, path) {
					got = append(got, filepath.Base(path)+": "+v)
				}
				// A vendor's own server publishes no attack.
				if s.official {
					for _, v := range lintVerdicts(t, path, "--select=security", "--ignore=context-budget") {
						t.Errorf("%s: a security finding on a vendor's own server: %s", filepath.Base(path), v)
					}
				}
			}
			want := filepath.Join(s.dir, "verdicts.txt")
			testenv.Golden(t, want, strings.Join(got, "\n")+"\n", *reduce || *update)
		})
	}
}

func TestReduceListing(t *testing.T) {
	long := strings.Repeat("word ", 300) // 1500 characters
	src := []byte(`{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"t","description":"` + long + `","inputSchema":{"type":"object","properties":{"n":{"type":"integer","maximum":1e3,"description":"short"}}}}]}}` + "\n" +
		`{"jsonrpc":"2.0","id":"initialize","result":{"protocolVersion":"2025-11-25","capabilities":{},"instructions":"` + strings.Repeat("x", 200) + `","serverInfo":{"name":"description","version":"1"}}}` + "\n")
	got, err := reduceListing(src)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(got)), "\n")
	var tool struct {
		Result struct {
			Tools []struct {
				Description string
				InputSchema json.RawMessage
			}
		}
	}
	if err := json.Unmarshal([]byte(lines[0]), &tool); err != nil {
		t.Fatal(err)
	}
	d := tool.Result.Tools[0].Description
	if utf8.RuneCountInString(d) != 1500 || !strings.Contains(d, "[1500 characters; reduced]") || strings.Count(d, "word") > 40 {
		t.Errorf("description reduced to %q", d)
	}
	if string(tool.Result.Tools[0].InputSchema) != `{"type":"object","properties":{"n":{"type":"integer","maximum":1e3,"description":"short"}}}` {
		t.Errorf("the schema changed: %s", tool.Result.Tools[0].InputSchema)
	}
	if !strings.Contains(lines[1], `"instructions":"xxx`) || !strings.Contains(lines[1], "[200 characters; reduced]") || !strings.Contains(lines[1], `"name":"description"`) {
		t.Errorf("handshake %s", lines[1])
	}
	again, _ := reduceListing(got)
	if !bytes.Equal(again, got) {
		t.Errorf("reducing twice changes it")
	}
}
