//go:build unix

package main

import (
	"bufio"
	"bytes"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpfit/mcplint/baseline"
	"github.com/mcpfit/mcplint/live"
	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/pin"
)

// BenchmarkHostile plays the attacks of the hostile-input suite at full
// size against a built mcplint, with the default limits, and reports the
// peak resident memory of the mcplint process (peak-RSS-MB) beside the
// time. Each attack must end as the suite says, and within its memory
// bound over what the process holds anyway (base-RSS-MB, mcplint linting a
// small file): three times the limit that stops it, except for YAML,
// whose scanner costs up to 200 bytes a byte before any limit but the
// YAML size can apply.
//
//	go test ./cmd/mcplint -run '^$' -bench Hostile -benchtime 1x
func BenchmarkHostile(b *testing.B) {
	bin := releaseBinary(b)
	dir := b.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
		return p
	}
	huge := httptest.NewServer(hugeAnswer(3 << 30))
	defer huge.Close()
	server := func(mode string, size int) []string {
		return []string{serverEnvFlag(mode), "--", os.Args[0], fmt.Sprintf("size=%d", size)}
	}
	const mib = 1 << 20
	base := peakRSS(b, bin, []string{"lint", "testdata/clean.json"}, nil, 0)
	b.Logf("base: %.0f MB", base)
	d := manifest.DefaultLimits
	sl := live.DefaultLimits
	for _, a := range []struct {
		name  string
		args  []string
		code  int
		bound float64 // bytes over the base
	}{
		{"lint-dev-zero", []string{"lint", "/dev/zero"}, 2, 3 * float64(d.Size)},
		{"lint-yaml-nested-9990", []string{"lint", write("deep.yaml", deepYAML(30, 9990))}, 2, 200 * float64(d.YAMLSize)},
		{"convert-yaml-1MiB-aliased-4096", []string{"convert", "--to=openai", write("bomb.yaml", aliasedYAML(mib, 4096))}, 2, 200 * float64(d.YAMLSize)},
		{"lint-ref-chain-10000", []string{"lint", write("chain.json", refRing(10000, false))}, 0, 100 * mib},
		{"lint-ref-cycle-1500", []string{"lint", write("cycle.json", refRing(1500, true))}, 1, 100 * mib},
		{"check-stdio-line-1.5GB", append([]string{"check"}, server("longline", 1536*mib)...), 3, 3 * float64(sl.MessageSize)},
		{"check-stdio-answer-40MB", append([]string{"check"}, server("bigpage", 40*mib)...), 3, 3 * float64(sl.MessageSize)},
		{"check-stdio-100001-tools", append([]string{"check"}, server("manytools", 100001)...), 3, 3 * float64(sl.MessageSize)},
		{"check-http-body-3GB", []string{"check", "--url", huge.URL}, 3, 3 * float64(sl.MessageSize)},
	} {
		b.Run(a.name, func(b *testing.B) {
			var peak float64
			for b.Loop() {
				peak = max(peak, peakRSS(b, bin, a.args, nil, a.code))
			}
			b.ReportMetric(peak, "peak-RSS-MB")
			b.ReportMetric(base, "base-RSS-MB")
			if over := (peak - base) * mib; over > a.bound {
				b.Errorf("peak RSS %.0f MB: %.0f MB over the base, bound %.0f MB", peak, over/mib, a.bound/mib)
			}
		})
	}
}

// peakRSS runs mcplint with args and env added to the environment, checks
// its exit status, and returns its peak resident memory in megabytes.
func peakRSS(b *testing.B, bin string, args, env []string, code int) float64 {
	b.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	if cmd.ProcessState == nil {
		b.Fatal(err)
	}
	if got := cmd.ProcessState.ExitCode(); got != code {
		b.Fatalf("%s: exit %d, want %d\n%s", strings.Join(args, " "), got, code, stderr.String())
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	b.Logf("%s: %v, %.0f MB peak; %s", args[0], time.Since(start).Round(time.Millisecond), float64(ru.Maxrss)/1024, firstLine(stderr.String()))
	return float64(ru.Maxrss) / 1024 // kilobytes on Linux
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 160 {
		s = s[:160] + "…"
	}
	return s
}

// BenchmarkPromise measures what docs/promises.md promises: the peak
// resident memory (peak-RSS-MB) of mcplint given the largest input of
// each kind its default limits accept, shaped to cost the most: a
// manifest of tiny tools that each have findings, one tool of a million
// properties, newline-delimited pages, YAML, a configuration, a lock
// file checked against a server, a baseline, a server's listing, and a
// client configuration read by --discover. Each peak must stay under the
// promised 1.2 GB.
//
//	go test ./cmd/mcplint -run '^$' -bench Promise -benchtime 1x
func BenchmarkPromise(b *testing.B) {
	bin := releaseBinary(b)
	dir := b.TempDir()
	write := func(name string, fill func(w *bufio.Writer)) string {
		p := filepath.Join(dir, name)
		f, err := os.Create(p)
		if err != nil {
			b.Fatal(err)
		}
		w := bufio.NewWriterSize(f, 1<<20)
		fill(w)
		if err := w.Flush(); err != nil {
			b.Fatal(err)
		}
		f.Close()
		return p
	}
	d := manifest.DefaultLimits
	// fillTo writes items (with sep between them) between head and tail,
	// as many as fit in limit bytes.
	fillTo := func(w *bufio.Writer, limit int64, head, sep, tail string, item func(i int) string) {
		n := int64(len(head) + len(tail))
		w.WriteString(head)
		for i := 0; ; i++ {
			s := item(i)
			if n+int64(len(s)+len(sep)) > limit {
				break
			}
			if i > 0 {
				w.WriteString(sep)
				n += int64(len(sep))
			}
			w.WriteString(s)
			n += int64(len(s))
		}
		w.WriteString(tail)
	}
	badTool := func(i int) string { return fmt.Sprintf(`{"name":"t %d","inputSchema":1}`, i) }
	property := func(i int) string { return fmt.Sprintf(`"p%d":{"type":"string","description":"A field."}`, i) }
	tiny := write("tiny.json", func(w *bufio.Writer) { fillTo(w, d.Size, `{"tools":[`, ",", "]}", badTool) })
	oneTool := write("one.json", func(w *bufio.Writer) {
		fillTo(w, d.Size, `{"tools":[{"name":"big","description":"Big.","inputSchema":{"type":"object","properties":{`, ",", "}}}]}", property)
	})
	pages := write("pages.ndjson", func(w *bufio.Writer) {
		fillTo(w, d.Size, "", "\n", "\n", func(i int) string {
			var t []string
			for j := range 1000 {
				t = append(t, badTool(i*1000+j))
			}
			return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"tools":[%s]}}`, i, strings.Join(t, ","))
		})
	})
	// Each tool is ten tokens: as many as the token limit allows, which
	// comes before the size limit (3.3 MiB of these).
	yaml := write("tools.yaml", func(w *bufio.Writer) {
		w.WriteString("tools:\n")
		for i := range (d.YAMLTokens - 2) / 10 {
			fmt.Fprintf(w, "- {name: t %d, inputSchema: 1}\n", i)
		}
	})
	config := write(".mcplint.yaml", func(w *bufio.Writer) {
		fillTo(w, 1<<20, "ignore:\n", "", "", func(i int) string {
			return fmt.Sprintf("- {rule: tool-name-valid, tool: \"t%d\", reason: accepted}\n", i)
		})
	})
	small := write("small.json", func(w *bufio.Writer) {
		w.WriteString(`{"tools":[{"name":"t","description":"Does t.","inputSchema":{"type":"object"}}]}`)
	})
	lock := write("mcplint.lock", func(w *bufio.Writer) {
		fillTo(w, pin.DefaultMaxSize, `{"version":1,"digest":"`+pin.Scheme+`","servers":{"hostile":{"tools":{`, ",", `},"prompts":{},"resources":{},"resourceTemplates":{}}}}`, func(i int) string {
			def := fmt.Sprintf(`{"description":"Search issues by text.","inputSchema":{"properties":{"limit":{"type":"integer"},"query":{"type":"string"}},"required":["query"],"type":"object"},"name":"t%d"}`, i)
			c, _ := pin.Canonical([]byte(def))
			return fmt.Sprintf(`"t%d":{"digest":%q,"definition":%s}`, i, pin.Digest(c), def)
		})
	})
	base := write("baseline.json", func(w *bufio.Writer) {
		fillTo(w, baseline.Limits.Size, `{"version":1,"findings":[`, ",", "]}", func(i int) string {
			return fmt.Sprintf(`{"rule":"tool-name-valid","file":"small.json","tool":"t%d","pointer":"/name","message":"a name with a space"}`, i)
		})
	})
	home := filepath.Join(dir, "home")
	os.MkdirAll(home, 0o755)
	write("home/.claude.json", func(w *bufio.Writer) {
		fillTo(w, live.ClientConfigLimits.Size, `{"mcpServers":{"s":{"command":"true"}},"projects":{`, ",", "}}", func(i int) string {
			return fmt.Sprintf(`"/p/%d":{"mcpServers":{"s%d":{"command":"x","args":["-y","pkg"]}},"history":["a","b"]}`, i, i)
		})
	})
	sl := live.DefaultLimits
	for _, a := range []struct {
		name string
		args []string
		env  []string
		code int
	}{
		{"lint-json-tiny-tools", []string{"lint", tiny}, nil, 1},
		{"lint-json-one-tool", []string{"lint", oneTool}, nil, 0},
		{"lint-ndjson", []string{"lint", pages}, nil, 1},
		{"lint-yaml", []string{"lint", yaml}, nil, 1},
		{"lint-sarif-tiny-tools", []string{"lint", "--format=sarif", tiny}, nil, 2},
		{"fix-one-tool", []string{"fix", "--select=all", oneTool}, nil, 1},
		{"convert-gemini-one-tool", []string{"convert", "--to=gemini", oneTool}, nil, 0},
		{"config", []string{"lint", "--config", config, small}, nil, 0},
		{"lock", append([]string{"check", "--locked", "--lockfile", lock, serverEnvFlag("manytools")}, "--", os.Args[0], "size=1"), nil, 1},
		{"baseline", []string{"lint", "--baseline", base, small}, nil, 0},
		{"check-listing", append([]string{"check", "--select", "all", "--timeout=10m", serverEnvFlag("schemapages")}, "--", os.Args[0], fmt.Sprintf("size=%d", sl.ListSize*7/8)), nil, 1},
		{"discover-client-config", []string{"check", "--discover", "--dry-run"}, []string{"HOME=" + home}, 0},
	} {
		b.Run(a.name, func(b *testing.B) {
			var peak float64
			for b.Loop() {
				peak = max(peak, peakRSS(b, bin, a.args, a.env, a.code))
			}
			b.ReportMetric(peak, "peak-RSS-MB")
			if peak > 1200 {
				b.Errorf("peak RSS %.0f MB, over the promise", peak)
			}
		})
	}
}
