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

	"github.com/mcpfit/mcplint/internal/english"
	"github.com/mcpfit/mcplint/internal/lineio"
	"github.com/mcpfit/mcplint/redact"
)

// maxNoise is how many non-protocol stdout lines are kept for messages.
const maxNoise = 5

// stderrLines is how many of the server's last stderr lines a failure shows.
const stderrLines = 10

// child is a stdio server process: its own process group, its stdout
// filtered so that only JSON-RPC reaches the SDK, its stderr's tail kept.
type child struct {
	cmd    *exec.Cmd
	stdin  *stdinPipe
	lines  lines         // the protocol lines, for the attached session
	done   chan struct{} // closed when the process has exited
	waited error
	limit  int64 // Limits.MessageSize
	// secrets mask what is kept of its output before it is cut.
	secrets *redact.Redactor
	// stderrTo receives each stderr line as it comes (nil: none).
	stderrTo io.Writer

	mu          sync.Mutex
	noise       []string
	noiseLines  int
	stderr      tail
	stopOnce    sync.Once
	filterDone  chan struct{}
	stderrDone  chan struct{}
	protocolOut bool   // a JSON-RPC message was seen on stdout
	tooLarge    *Error // a line passed the message size limit
	// quitFirst: the server closed its stdout before we closed its stdin,
	// so it ended on its own rather than because the conversation ended.
	quitFirst bool
}

// stdinPipe is the server's standard input; it remembers being closed,
// which tells a server that quit from one that stopped when told to.
type stdinPipe struct {
	io.WriteCloser
	mu     sync.Mutex
	closed bool
}

func (p *stdinPipe) Close() error {
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
	return p.WriteCloser.Close()
}

func (p *stdinPipe) isClosed() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.closed
}

func startChild(t Target, limits Limits) (*child, error) {
	return startChildTo(t, limits, nil, nil)
}

// startChildTo is startChild passing each stderr line to stderr as well
// (nil for none), and calling ready (when not nil) with the child before
// its output is read: a session attached there misses no line.
func startChildTo(t Target, limits Limits, stderr io.Writer, ready func(*child)) (*child, error) {
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
	errPipe, err := cmd.StderrPipe()
	if err != nil {
		return nil, failf(KindStart, err, "cannot start %q: %v", t.Command[0], err)
	}
	done := make(chan struct{})
	if err := start(cmd, done); err != nil {
		return nil, failf(KindStart, err, "cannot start %q: %s", t.Command[0], startReason(err))
	}
	running.add(cmd.Process.Pid)
	serverGroups.add(cmd.Process.Pid) // its own group (Setpgid)
	secrets := t.Secrets()
	c := &child{cmd: cmd, stdin: &stdinPipe{WriteCloser: stdin}, done: done, limit: limits.MessageSize,
		secrets: secrets, stderr: tail{secrets: secrets}, stderrTo: stderr,
		filterDone: make(chan struct{}), stderrDone: make(chan struct{})}
	if ready != nil {
		ready(c)
	}
	go c.filter(stdout)
	go c.readStderr(errPipe)
	go func() {
		<-c.filterDone
		<-c.stderrDone
		c.waited = cmd.Wait()
		running.remove(cmd.Process.Pid)
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
// (stdio-stdout-clean). A line is read no further than the message size
// limit: past it the conversation fails and the rest is discarded unread.
func (c *child) filter(stdout io.Reader) {
	defer close(c.filterDone)
	r := lineio.NewReader(stdout)
	for {
		line, err := r.Read(c.limit)
		if errors.Is(err, lineio.ErrTooLong) {
			c.mu.Lock()
			c.tooLarge = messageTooLarge("a line on stdout", c.limit)
			c.mu.Unlock()
			c.lines.end(errMessageTooLarge)
			_, _ = io.Copy(io.Discard, stdout)
			return
		}
		if t := bytes.TrimSpace(line); len(t) > 0 {
			if isJSONRPC(t) {
				c.mu.Lock()
				c.protocolOut = true
				c.mu.Unlock()
				c.lines.deliver(append(t, '\n'))
			} else {
				c.mu.Lock()
				c.noiseLines++
				if len(c.noise) < maxNoise {
					c.noise = append(c.noise, shown(c.secrets, string(t)))
				}
				c.mu.Unlock()
			}
		}
		if err != nil {
			c.mu.Lock()
			c.quitFirst = !c.stdin.isClosed()
			c.mu.Unlock()
			c.lines.end(nil)
			return
		}
	}
}

// isJSONRPC says whether a line is a JSON-RPC message (an object with
// "jsonrpc": "2.0", or a batch) rather than a stray log line. A message
// nested deeper than encoding/json's decoder goes (10,000 levels) is read
// token by token instead: taken for a log line, it would be set aside and
// the server's answer never seen, a wait until the timeout where the
// SDK's own decoder gives a clear error.
func isJSONRPC(line []byte) bool {
	if line[0] != '{' && line[0] != '[' {
		return false
	}
	var probe struct {
		JSONRPC string `json:"jsonrpc"`
	}
	if line[0] == '[' {
		if json.Valid(line) {
			return true
		}
	} else if err := json.Unmarshal(line, &probe); err == nil {
		return probe.JSONRPC == "2.0"
	}
	return jsonRPCTokens(line)
}

// jsonRPCTokens is isJSONRPC without a bound on nesting: the line's tokens
// are walked once, keeping only their depth. It is not jsonscan's
// structural scan, which the proxy routes with: a line goes to the SDK
// only if it decodes, every number and literal checked, since a malformed
// one would end the conversation where a log line is only a finding.
func jsonRPCTokens(line []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(line))
	ok := true
	if line[0] == '[' {
		ok = skipValue(dec)
	} else {
		version := ""
		if _, err := dec.Token(); err != nil { // {
			return false
		}
		for ok && dec.More() {
			key, err := dec.Token()
			if err != nil {
				return false
			}
			if key == "jsonrpc" {
				v, err := dec.Token()
				s, isString := v.(string)
				if err != nil || !isString {
					return false
				}
				version = s
				continue
			}
			ok = skipValue(dec)
		}
		if _, err := dec.Token(); err != nil || version != "2.0" { // }
			return false
		}
	}
	_, err := dec.Token()
	return ok && err == io.EOF
}

// skipValue reads one JSON value from dec, however deep, and says whether
// it was well formed.
func skipValue(dec *json.Decoder) bool {
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			return true
		}
	}
}

func (c *child) readStderr(r io.Reader) {
	defer close(c.stderrDone)
	s := bufio.NewScanner(r)
	s.Buffer(make([]byte, 64<<10), 1<<20)
	for s.Scan() {
		c.mu.Lock()
		c.stderr.add(s.Text())
		c.mu.Unlock()
		if c.stderrTo != nil {
			// A copy: the scanner's buffer holds what it reads next.
			_, _ = c.stderrTo.Write(append(append([]byte(nil), s.Bytes()...), '\n'))
		}
	}
	_, _ = io.Copy(io.Discard, r)
}

// transport is the SDK's view of the child: each connection a session of
// its own on the same process (sessions.go). The filter bounds lines; the
// SDK's own bound is set above it so that the filter's, clearer, error is
// the one met.
func (c *child) transport() mcp.Transport {
	return sessionTransport{c: c}
}

// sdkBound is the SDK's bound for a message when ours is limit: the SDK
// counts what its decoder buffers, which can run a message ahead.
func sdkBound(limit int64) int {
	return int(min(2*limit+64<<10, 1<<40))
}

// stop ends the child and everything it started: stdin is closed (a polite
// server exits on EOF), then the process, its process group and its
// descendants are killed, whatever the leader did, so that no grandchild
// survives. Its waits end when over is closed (the grace after the
// deadline, see Grace): the kill has been sent by then, and what is left
// to wait for is only the pipes a killed process held.
func (c *child) stop(over <-chan struct{}) {
	c.stopOnce.Do(func() {
		c.stdin.Close()
		select {
		case <-c.done:
		case <-time.After(300 * time.Millisecond):
		case <-over:
		}
		killTree(c.cmd)
		// Detaching every session unblocks the filter if a grandchild
		// holding the pipe somehow survived.
		c.lines.close()
		select {
		case <-c.done:
		case <-time.After(5 * time.Second):
		case <-over:
		}
	})
}

// quit reports whether the server ended on its own, before the
// conversation ended and closed its stdin, waiting a little for it to
// exit (no later than over is closed): a server that closed stdout is
// usually about to.
func (c *child) quit(wait time.Duration, over <-chan struct{}) bool {
	select {
	case <-c.done:
	case <-time.After(wait):
		return false
	case <-over:
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.quitFirst
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
// cause: a line over the size limit, the process quitting, or only
// non-protocol text. A server that stopped because the conversation ended
// (a timeout closes its stdin) did not quit: the timeout is the cause.
func (c *child) explain(ctx context.Context, err error, over <-chan struct{}) error {
	c.mu.Lock()
	tooLarge := c.tooLarge
	c.mu.Unlock()
	if tooLarge != nil {
		tooLarge.Stderr = c.stderrTail()
		return tooLarge
	}
	e, ok := AsError(err)
	if !ok {
		e = handshakeError(ctx, err).(*Error)
	}
	noise, n, protocol := c.noiseLinesSnapshot()
	if e.Kind == KindProtocol || e.Kind == KindTimeout {
		// A server that exits as its check times out is rare; the wait
		// for it comes out of the grace (see Grace), so it is short.
		wait := time.Second
		if e.Kind == KindTimeout {
			wait = 200 * time.Millisecond
		}
		if c.quit(wait, over) {
			e = failf(KindExit, err, "the server exited during the conversation (%s)", exitStatus(c.waited))
		}
	}
	if n > 0 && !protocol && (e.Kind == KindProtocol || e.Kind == KindTimeout || e.Kind == KindExit) {
		e = failf(KindStdout, err, "the server wrote text that is not JSON-RPC on stdout (%d line%s, first: %q) and no protocol message; an MCP stdio server must write only JSON-RPC on stdout and log to stderr", n, english.Plural(n, "", "s"), noise[0])
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

// tail keeps the last lines written, masked with secrets.
type tail struct {
	buf     []string
	secrets *redact.Redactor
}

func (t *tail) add(s string) {
	if len(t.buf) == stderrLines {
		t.buf = t.buf[1:]
	}
	t.buf = append(t.buf, shown(t.secrets, strings.TrimRight(s, "\r")))
}

func (t *tail) lines() []string { return append([]string(nil), t.buf...) }
