//go:build unix

package proxy

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// alive reports whether a process exists.
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// pidsOf waits for the server to write its pid and its child's.
func pidsOf(t *testing.T, pidfile string) []int {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		b, err := os.ReadFile(pidfile)
		if f := strings.Fields(string(b)); err == nil && len(f) == 2 {
			var pids []int
			for _, s := range f {
				n, _ := strconv.Atoi(s)
				pids = append(pids, n)
			}
			return pids
		}
		if time.Now().After(deadline) {
			t.Fatal("the server did not write its pids")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func gone(t *testing.T, pids []int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for _, pid := range pids {
		for alive(pid) {
			if time.Now().After(deadline) {
				t.Errorf("process %d is still running", pid)
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// TestStdinCloseStopsTree: the client closing stdin ends the server and
// what it started, and the proxy ends well.
func TestStdinCloseStopsTree(t *testing.T) {
	pidfile := filepath.Join(t.TempDir(), "pids")
	r := start(t, Options{Target: self("spawn", "MCPLINT_PROXY_TEST_PIDFILE="+pidfile)})
	r.send(initialize)
	r.recv()
	pids := pidsOf(t, pidfile)
	for _, pid := range pids {
		if !alive(pid) {
			t.Fatalf("process %d is not running", pid)
		}
	}
	r.in.Close()
	if err := r.wait(); err != nil {
		t.Fatalf("Run: %v", err)
	}
	gone(t, pids)
}

// TestServerDeathStopsTree: a server that exits leaves nothing it started
// behind either.
func TestServerDeathStopsTree(t *testing.T) {
	pidfile := filepath.Join(t.TempDir(), "pids")
	r := start(t, Options{Target: self("spawndie", "MCPLINT_PROXY_TEST_PIDFILE="+pidfile)})
	pids := pidsOf(t, pidfile)
	r.send(initialize)
	r.recv()
	if err := r.wait(); !errors.Is(err, ErrServer) {
		t.Fatalf("Run: %v", err)
	}
	gone(t, pids)
}
