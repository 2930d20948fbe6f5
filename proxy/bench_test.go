package proxy

import (
	"bufio"
	"context"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"
)

// The proxy's cost is the latency it adds to a tools/call and what it does
// to throughput, measured against the same server reached directly: a
// server (benchServer) that answers as fast as it reads, so that the
// difference is the proxy's. Run
//
//	go test ./proxy -run '^$' -bench ToolsCall -benchtime 10000x
//
// for 10,000 sequential calls each way, interleaved so that the machine's
// noise falls on both; see docs/performance.md.

// conn is a client's end of a stdio conversation: lines out, lines in.
type conn struct {
	w    io.Writer
	bw   *bufio.Writer
	r    *bufio.Reader
	mu   sync.Mutex
	wait map[string]chan struct{}
}

func newConn(w io.Writer, r io.Reader) *conn {
	return &conn{w: w, bw: bufio.NewWriterSize(w, 64<<10), r: bufio.NewReaderSize(r, 64<<10), wait: map[string]chan struct{}{}}
}

func (c *conn) send(line string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, err := c.bw.WriteString(line + "\n"); err != nil {
		return err
	}
	return c.bw.Flush()
}

func (c *conn) recv() (string, error) { return c.r.ReadString('\n') }

// handshake initializes and lists the tools, as a client does first.
func (c *conn) handshake() error {
	for _, m := range []string{initialize, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, `{"jsonrpc":"2.0","id":"l","method":"tools/list"}`} {
		if err := c.send(m); err != nil {
			return err
		}
	}
	for range 2 {
		if _, err := c.recv(); err != nil {
			return err
		}
	}
	return nil
}

func call(id int) string {
	return `{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"tools/call","params":{"name":"search","arguments":{"query":"proxy latency","limit":10,"tags":["a","b"]}}}`
}

// direct starts the bench server with the client on its pipes.
func direct(b *testing.B) *conn {
	b.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), serverEnv+"=bench")
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { in.Close(); _ = cmd.Wait() })
	c := newConn(in, out)
	if err := c.handshake(); err != nil {
		b.Fatal(err)
	}
	return c
}

// proxied runs the proxy in this process in front of the bench server.
func proxied(b *testing.B) *conn {
	b.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- Run(context.Background(), Options{Target: self("bench"), Stdin: inR, Stdout: outW, Log: io.Discard})
		outW.Close()
	}()
	b.Cleanup(func() { inW.Close(); outR.Close(); <-done })
	c := newConn(inW, outR)
	if err := c.handshake(); err != nil {
		b.Fatal(err)
	}
	return c
}

func percentile(d []time.Duration, p float64) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[min(len(s)-1, int(float64(len(s))*p))]
}

// BenchmarkToolsCall makes b.N sequential tools/call each way, directly
// and through the proxy, one after the other, and reports the median and
// 99th percentile of each way and what the proxy adds.
func BenchmarkToolsCall(b *testing.B) {
	d, p := direct(b), proxied(b)
	var dl, pl []time.Duration
	b.ResetTimer()
	for i := range b.N {
		for _, w := range []struct {
			c   *conn
			lat *[]time.Duration
		}{{d, &dl}, {p, &pl}} {
			start := time.Now()
			if err := w.c.send(call(i)); err != nil {
				b.Fatal(err)
			}
			if _, err := w.c.recv(); err != nil {
				b.Fatal(err)
			}
			*w.lat = append(*w.lat, time.Since(start))
		}
	}
	b.StopTimer()
	us := func(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }
	b.ReportMetric(us(percentile(dl, 0.5)), "direct-p50-µs")
	b.ReportMetric(us(percentile(pl, 0.5)), "proxy-p50-µs")
	b.ReportMetric(us(percentile(pl, 0.5)-percentile(dl, 0.5)), "added-p50-µs")
	b.ReportMetric(us(percentile(dl, 0.99)), "direct-p99-µs")
	b.ReportMetric(us(percentile(pl, 0.99)), "proxy-p99-µs")
	b.ReportMetric(us(percentile(pl, 0.99)-percentile(dl, 0.99)), "added-p99-µs")
}

// BenchmarkToolsCallInFlight keeps 16 calls in flight, each way, and
// reports the calls per second.
func BenchmarkToolsCallInFlight(b *testing.B) {
	for _, way := range []struct {
		name string
		open func(*testing.B) *conn
	}{{"direct", direct}, {"proxy", proxied}} {
		b.Run(way.name, func(b *testing.B) {
			c := way.open(b)
			const inFlight = 16
			sem := make(chan struct{}, inFlight)
			received := make(chan struct{})
			go func() {
				for range b.N {
					if _, err := c.recv(); err != nil {
						return
					}
					<-sem
				}
				close(received)
			}()
			b.ResetTimer()
			start := time.Now()
			for i := range b.N {
				sem <- struct{}{}
				if err := c.send(call(i)); err != nil {
					b.Fatal(err)
				}
			}
			<-received
			b.StopTimer()
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "calls/s")
		})
	}
}
