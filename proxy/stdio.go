package proxy

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/mcpfit/mcplint/internal/lineio"
	"github.com/mcpfit/mcplint/live"
	"github.com/mcpfit/mcplint/manifest"
)

// lineReader reads newline-delimited messages, each no longer than limit
// bytes: a longer line is skipped as it is read, never held whole.
type lineReader struct {
	r     *lineio.Reader
	limit int64
}

func newLineReader(r io.Reader, limit int64) *lineReader {
	return &lineReader{r: lineio.NewReader(r), limit: limit}
}

// errLineTooLong is returned for a line over the limit; the reader has
// skipped it and can go on.
var errLineTooLong = errors.New("message larger than the limit")

// next returns the next non-empty line, without its line ending; the slice
// is valid until the next call.
func (l *lineReader) next() ([]byte, error) {
	for {
		line, err := l.r.Read(l.limit)
		if errors.Is(err, lineio.ErrTooLong) {
			// Read past before the client is told, so that the error
			// answers a message that is over.
			if err := l.r.Skip(); err != nil && err != io.EOF {
				return nil, err
			}
			return nil, errLineTooLong
		}
		if err != nil {
			return nil, err
		}
		if t := bytes.TrimSpace(line); len(t) > 0 {
			return t, nil
		}
	}
}

// stdioFront is the client over stdio: messages are written one a line.
type stdioFront struct {
	mu sync.Mutex
	w  *bufio.Writer
}

func (f *stdioFront) send(b []byte, _ route) error {
	b = oneLine(b)
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, err := f.w.Write(b); err != nil {
		return err
	}
	if err := f.w.WriteByte('\n'); err != nil {
		return err
	}
	return f.w.Flush()
}

// runStdio relays between the client on stdin/stdout and the server.
func (p *Proxy) runStdio(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	front := &stdioFront{w: bufio.NewWriterSize(p.o.Stdout, 64<<10)}
	s := newSession(p, front, false)
	up, serverDone, err := p.dial(ctx, s)
	if err != nil {
		return p.serverFailure(err)
	}
	s.up = up
	clientDone := make(chan error, 1)
	go func() {
		lr := newLineReader(p.o.Stdin, p.limits().MessageSize)
		for {
			line, err := lr.next()
			if errors.Is(err, errLineTooLong) {
				s.deliver([]byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"mcplint proxy: a message larger than the limit of %s was dropped"}}`, manifest.SizeText(p.limits().MessageSize))), route{})
				continue
			}
			if err != nil {
				clientDone <- err
				return
			}
			// The line's bytes are the reader's: the session may keep
			// them past the next read.
			if err := s.fromClient(ctx, bytes.Clone(line)); err != nil {
				clientDone <- nil
				return
			}
		}
	}()
	select {
	case <-clientDone:
		// The client is gone: so is the server, and all it started,
		// once it has what the client sent.
		s.sendHeld(ownTimeout)
		up.close()
		s.wait()
		return nil
	case err := <-serverDone:
		s.serverGone(err)
		s.wait()
		up.close()
		return p.serverFailure(err)
	case <-ctx.Done():
		up.close()
		s.wait()
		return ctx.Err()
	}
}

// stdioUp is a server started as a process, over its stdin and stdout.
type stdioUp struct {
	proc *live.Process
	mu   sync.Mutex
	w    *bufio.Writer
	once sync.Once
	// read is closed when all the server wrote has been relayed.
	read chan struct{}
}

// startStdio starts the server for a session, and relays what it writes to
// the session. The channel gets why the server's output ended, unless the
// session closed it first.
func (p *Proxy) startStdio(s *session) (upstream, <-chan error, error) {
	proc, err := live.Start(p.o.Target, p.limits(), p.stderr)
	if err != nil {
		return nil, nil, err
	}
	u := &stdioUp{proc: proc, w: bufio.NewWriterSize(proc.Stdin(), 64<<10), read: make(chan struct{})}
	done := make(chan error, 1)
	go func() {
		lr := newLineReader(proc.Stdout(), p.limits().MessageSize)
		for n := 0; ; n++ {
			line, err := lr.next()
			if err != nil {
				break
			}
			s.fromServer(bytes.Clone(line), route{})
			if n%64 == 0 {
				p.noteStdout(proc)
			}
		}
		p.noteStdout(proc)
		close(u.read)
		// A server that closed its stdout is about to exit: give it a
		// moment, for its status (one that passed a limit is failed at
		// once).
		if proc.Err() == nil {
			select {
			case <-proc.Done():
			case <-time.After(2 * time.Second):
			}
		}
		if err := proc.Err(); err != nil {
			done <- err
			return
		}
		done <- errors.New("the server closed its standard output")
	}()
	return u, done, nil
}

func (u *stdioUp) send(_ context.Context, b []byte, _ envelope, _ *toolEntry) error {
	b = oneLine(b)
	u.mu.Lock()
	defer u.mu.Unlock()
	if _, err := u.w.Write(b); err != nil {
		return err
	}
	if err := u.w.WriteByte('\n'); err != nil {
		return err
	}
	return u.w.Flush()
}

// close stops the server (its stdin closed, a moment to exit, then its
// process tree killed), and returns once what it wrote meanwhile has been
// relayed.
func (u *stdioUp) close() {
	u.once.Do(func() {
		u.proc.Stop()
		select {
		case <-u.read:
		case <-time.After(5 * time.Second):
		}
	})
}

// noteStdout logs, once, that the server writes lines on stdout that are
// not JSON-RPC, which the proxy drops: the client would refuse them.
func (p *Proxy) noteStdout(proc *live.Process) {
	// The lines themselves are not logged: a server may echo arguments.
	_, n := proc.NonProtocol()
	if n == 0 {
		return
	}
	p.log.reportf("", "stdout", "any", "the server writes lines that are not JSON-RPC on stdout (%d so far); they were dropped, as the client would refuse them (rule stdio-stdout-clean)", n)
}
