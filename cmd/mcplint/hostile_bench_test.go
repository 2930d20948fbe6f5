//go:build unix

package main

import (
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

	"github.com/mcpfit/mcplint/live"
	"github.com/mcpfit/mcplint/manifest"
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
	base := peakRSS(b, bin, []string{"lint", "testdata/clean.json"}, 0)
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
				peak = max(peak, peakRSS(b, bin, a.args, a.code))
			}
			b.ReportMetric(peak, "peak-RSS-MB")
			b.ReportMetric(base, "base-RSS-MB")
			if over := (peak - base) * mib; over > a.bound {
				b.Errorf("peak RSS %.0f MB: %.0f MB over the base, bound %.0f MB", peak, over/mib, a.bound/mib)
			}
		})
	}
}

// peakRSS runs mcplint with args, checks its exit status, and returns its
// peak resident memory in megabytes.
func peakRSS(b *testing.B, bin string, args []string, code int) float64 {
	b.Helper()
	cmd := exec.Command(bin, args...)
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
