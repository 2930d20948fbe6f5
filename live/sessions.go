package live

import (
	"context"
	"errors"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A stdio server is one process, but a check may hold several
// conversations with it, one per protocol era: a dual-era server serves
// a modern (server/discover) client and a legacy (initialize) one on the
// same process (MCP 2026-07-28, basic/versioning, "Backward Compatibility
// with Initialization-Based Versions": "A dual-era server MAY serve both
// eras concurrently on the same endpoint or process"). So the child's
// protocol lines go to whichever session is attached, and closing a
// session detaches it without closing the server's stdin, which only
// child.stop closes.

// lines hands the protocol lines of the child's stdout to the attached
// session, one session at a time.
type lines struct {
	mu      sync.Mutex
	current *io.PipeWriter // the attached session's end, nil when none
	ended   error          // set when stdout ended: io.EOF, or why
}

// attach starts a new session and returns both ends of what it reads;
// the previous session, if still attached, is detached (it reads EOF).
func (ls *lines) attach() (*io.PipeReader, *io.PipeWriter) {
	pr, pw := io.Pipe()
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if ls.current != nil {
		ls.current.Close()
	}
	if ls.ended != nil {
		pw.CloseWithError(ls.ended)
		return pr, pw
	}
	ls.current = pw
	return pr, pw
}

// detach ends the session whose end is pw, if it is still attached.
func (ls *lines) detach(pw *io.PipeWriter) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if ls.current == pw {
		ls.current = nil
	}
	pw.Close()
}

// deliver gives a line to the attached session, blocking until it reads
// it; without a session, or when the session goes while the line waits,
// the line is dropped: it answered a conversation that is over.
func (ls *lines) deliver(line []byte) {
	ls.mu.Lock()
	pw := ls.current
	ls.mu.Unlock()
	if pw != nil {
		_, _ = pw.Write(line)
	}
}

// end closes the stream for the attached session and every later one,
// with err (nil: EOF).
func (ls *lines) end(err error) {
	if err == nil {
		err = io.EOF
	}
	ls.mu.Lock()
	defer ls.mu.Unlock()
	ls.ended = err
	if ls.current != nil {
		ls.current.CloseWithError(err)
		ls.current = nil
	}
}

// close detaches every session for good, as the child stops: nothing
// reads its lines any more.
func (ls *lines) close() { ls.end(errors.New("the server was stopped")) }

// sessionTransport is an mcp.Transport over the child: each Connect is a
// new session on the same process.
type sessionTransport struct{ c *child }

func (t sessionTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	pr, pw := t.c.lines.attach()
	s := &session{r: pr, w: pw, c: t.c}
	io := &mcp.IOTransport{Reader: s, Writer: &sessionWriter{s: s}, MaxLineLength: sdkBound(t.c.limit)}
	return io.Connect(ctx)
}

// session is one conversation's view of the child: closing it detaches
// it, and the child keeps running.
type session struct {
	r    *io.PipeReader
	w    *io.PipeWriter
	c    *child
	once sync.Once
	mu   sync.Mutex
	done bool
}

func (s *session) Read(p []byte) (int, error) { return s.r.Read(p) }

func (s *session) Close() error {
	s.once.Do(func() {
		s.mu.Lock()
		s.done = true
		s.mu.Unlock()
		s.r.Close()
		s.c.lines.detach(s.w)
	})
	return nil
}

// sessionWriter writes to the child's stdin for one session; closing it
// closes the session, not stdin.
type sessionWriter struct{ s *session }

func (w *sessionWriter) Write(p []byte) (int, error) {
	w.s.mu.Lock()
	done := w.s.done
	w.s.mu.Unlock()
	if done {
		return 0, io.ErrClosedPipe
	}
	return w.s.c.stdin.Write(p)
}

func (w *sessionWriter) Close() error { return w.s.Close() }
