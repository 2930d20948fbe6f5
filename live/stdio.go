package live

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxNoise is how many non-protocol stdout lines are kept for messages.
const maxNoise = 5

// stderrLines is how many of the server's last stderr lines a failure shows.
const stderrLines = 10

// child is a stdio server process: its own process group, its stdout
// filtered so that only JSON-RPC reaches the SDK, its stderr's tail kept.
type child struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	out    *io.PipeReader
	done   chan struct{} // closed when the process has exited
	waited error

	mu          sync.Mutex
	noise       []string
	noiseLines  int
	stderr      tail
	stopOnce    sync.Once
	filterDone  chan struct{}
	stderrDone  chan struct{}
	protocolOut bool // a JSON-RPC message was seen on stdout
}

func startChild(t Target) (*child, error) {
	if len(t.Command) == 0 || t.Command[0] == "" {
		return nil, failf(KindStart, nil, "no command to start")
	}
	path, err := exec.LookPath(t.Command[0])
	if err != nil {
		return nil, failf(KindStart, err, "cannot start %q: %s", t.Command[0], startReason(err))
	}
	cmd := exec.Command(path, t.Command[1:]...)
	cmd.Args[0] = t.Command[0]
	cmd.Dir = t.Dir
	cmd.Env = append(os.Environ(), t.Env...)
	setProcessGroup(cmd)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, failf(KindStart, err, "cannot start %q: %v", t.Command[0], err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, failf(KindStart, err, "cannot start %q: %v", t.Command[0], err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, failf(KindStart, err, "cannot start %q: %v", t.Command[0], err)
	}
	if err := cmd.Start(); err != nil {
		return nil, failf(KindStart, err, "cannot start %q: %s", t.Command[0], startReason(err))
	}
	pr, pw := io.Pipe()
	c := &child{cmd: cmd, stdin: stdin, out: pr, done: make(chan struct{}),
		filterDone: make(chan struct{}), stderrDone: make(chan struct{})}
	go c.filter(stdout, pw)
	go c.readStderr(stderr)
	go func() {
		<-c.filterDone
		<-c.stderrDone
		c.waited = cmd.Wait()
		close(c.done)
	}()
	return c, nil
}

func startReason(err error) string {
	switch {
	case errors.Is(err, exec.ErrNotFound), errors.Is(err, os.ErrNotExist):
		return "command not found"
	case errors.Is(err, os.ErrPermission):
		return "not executable (permission denied)"
	}
	return err.Error()
}

// filter passes JSON-RPC lines on to the SDK and keeps the others aside:
// one stray log line must not end the conversation, it is a finding
// (stdio-stdout-clean).
func (c *child) filter(stdout io.Reader, pw *io.PipeWriter) {
	defer close(c.filterDone)
	r := bufio.NewReaderSize(stdout, 64<<10)
	for {
		line, err := r.ReadBytes('\n')
		if t := bytes.TrimSpace(line); len(t) > 0 {
			if isJSONRPC(t) {
				c.mu.Lock()
				c.protocolOut = true
				c.mu.Unlock()
				if _, werr := pw.Write(append(t, '\n')); werr != nil {
					// The SDK has gone; drain so the child never blocks.
					_, _ = io.Copy(io.Discard, r)
					return
				}
			} else {
				c.mu.Lock()
				c.noiseLines++
				if len(c.noise) < maxNoise {
					c.noise = append(c.noise, clip(string(t)))
				}
				c.mu.Unlock()
			}
		}
		if err != nil {
			pw.Close()
			return
		}
	}
}

func isJSONRPC(line []byte) bool {
	if line[0] != '{' && line[0] != '[' {
		return false
	}
	var probe struct {
		JSONRPC string `json:"jsonrpc"`
	}
	if line[0] == '[' {
		return json.Valid(line)
	}
	return json.Unmarshal(line, &probe) == nil && probe.JSONRPC == "2.0"
}

func (c *child) readStderr(r io.Reader) {
	defer close(c.stderrDone)
	s := bufio.NewScanner(r)
	s.Buffer(make([]byte, 64<<10), 1<<20)
	for s.Scan() {
		c.mu.Lock()
		c.stderr.add(s.Text())
		c.mu.Unlock()
	}
	_, _ = io.Copy(io.Discard, r)
}

// transport is the SDK's view of the child.
func (c *child) transport() mcp.Transport {
	return &mcp.IOTransport{Reader: c.out, Writer: c.stdin}
}

// stop ends the child and everything it started: stdin is closed (a polite
// server exits on EOF), then the whole process group is killed, whatever
// the leader did, so that no grandchild survives.
func (c *child) stop() {
	c.stopOnce.Do(func() {
		c.stdin.Close()
		select {
		case <-c.done:
		case <-time.After(300 * time.Millisecond):
		}
		killGroup(c.cmd)
		// Closing our end of stdout unblocks the filter if a grandchild
		// holding the pipe somehow survived.
		c.out.Close()
		select {
		case <-c.done:
		case <-time.After(5 * time.Second):
		}
	})
}

// exited reports whether the process has exited, waiting a little: a
// server that closed stdout is usually about to exit.
func (c *child) exited(wait time.Duration) bool {
	select {
	case <-c.done:
		return true
	case <-time.After(wait):
		return false
	}
}

func (c *child) noiseLinesSnapshot() ([]string, int, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.noise...), c.noiseLines, c.protocolOut
}

func (c *child) stderrTail() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stderr.lines()
}

// explain turns a failed conversation with the child into its clearest
// cause: the process exited, or only wrote non-protocol text.
func (c *child) explain(ctx context.Context, err error) error {
	e, ok := AsError(err)
	if !ok {
		e = handshakeError(ctx, err).(*Error)
	}
	noise, n, protocol := c.noiseLinesSnapshot()
	if e.Kind == KindProtocol || e.Kind == KindTimeout {
		if c.exited(time.Second) {
			e = failf(KindExit, err, "the server exited during the conversation (%s)", exitStatus(c.waited))
		}
	}
	if n > 0 && !protocol && (e.Kind == KindProtocol || e.Kind == KindTimeout || e.Kind == KindExit) {
		e = failf(KindStdout, err, "the server wrote text that is not JSON-RPC on stdout (%d line%s, first: %q) and no protocol message; an MCP stdio server must write only JSON-RPC on stdout and log to stderr", n, plural(n), noise[0])
	}
	e.Stderr = c.stderrTail()
	return e
}

func exitStatus(err error) string {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ProcessState.String()
	}
	if err == nil {
		return "exit status 0"
	}
	return err.Error()
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// tail keeps the last lines written.
type tail struct{ buf []string }

func (t *tail) add(s string) {
	if len(t.buf) == stderrLines {
		t.buf = t.buf[1:]
	}
	t.buf = append(t.buf, clip(strings.TrimRight(s, "\r")))
}

func (t *tail) lines() []string { return append([]string(nil), t.buf...) }
