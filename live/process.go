package live

import (
	"context"
	"io"
	"time"
)

// Process is a stdio server started by Start for a caller that holds the
// conversation itself (mcplint proxy relays it), with everything a check's
// server gets: its own process group, every descendant killed when it
// stops, stdout filtered to JSON-RPC lines no longer than
// Limits.MessageSize, the tail of its stderr kept for failures.
type Process struct {
	c   *child
	out *io.PipeReader // the session of this caller on the child's lines
}

// Start starts the server t describes, which must be a command. limits'
// zero fields take DefaultLimits'. stderr, when not nil, receives each line
// the server writes on its standard error, as it writes it (a proxy passes
// it on to its own); the last lines are kept for Err either way.
func Start(t Target, limits Limits, stderr io.Writer) (*Process, error) {
	if len(t.Command) == 0 {
		return nil, failf(KindStart, nil, "no command to start")
	}
	p := &Process{}
	c, err := startChildTo(t, limits.withDefaults(), stderr, func(c *child) {
		// Attached before the first line is read, so none is dropped.
		p.out, _ = c.lines.attach()
	})
	if err != nil {
		return nil, redactError(t.Secrets(), err)
	}
	p.c = c
	return p, nil
}

// Stdin is the server's standard input. Closing it asks a polite server to
// exit.
func (p *Process) Stdin() io.WriteCloser { return p.c.stdin }

// Stdout yields the JSON-RPC messages the server writes, one a line
// ending in "\n", each at most Limits.MessageSize bytes; other lines are
// left out (NonProtocol counts them). Reading fails once a line passes
// the limit (Err then says so), and ends with io.EOF when the server
// closes its stdout.
func (p *Process) Stdout() io.Reader { return p.out }

// Done is closed when the server process has exited and its output has
// been read.
func (p *Process) Done() <-chan struct{} { return p.c.done }

// Stop ends the server and every process it started: stdin is closed, the
// server gets a moment to exit, then its process group and descendants are
// killed. It returns when the process has been reaped (or after a few
// seconds, if a descendant holds its pipes).
func (p *Process) Stop() { p.c.stop(nil) }

// Quit reports whether the server ended on its own, before its stdin was
// closed, waiting up to wait for it to exit.
func (p *Process) Quit(wait time.Duration) bool { return p.c.quit(wait, nil) }

// NonProtocol returns the first lines the server wrote on stdout that are
// not JSON-RPC (at most a few) and how many there were.
func (p *Process) NonProtocol() ([]string, int) {
	lines, n, _ := p.c.noiseLinesSnapshot()
	return lines, n
}

// Err explains how the server's output ended: an *Error naming a line over
// the size limit, or the server's exit and its status, with the last lines
// of its stderr. It is nil while the server runs within the limits.
func (p *Process) Err() error {
	p.c.mu.Lock()
	tooLarge := p.c.tooLarge
	p.c.mu.Unlock()
	if tooLarge != nil {
		e := *tooLarge
		e.Stderr = p.c.stderrTail()
		return &e
	}
	select {
	case <-p.c.done:
	default:
		return nil
	}
	e := failf(KindExit, p.c.waited, "the server exited (%s)", exitStatus(p.c.waited))
	e.Stderr = p.c.stderrTail()
	return e
}

// Wait waits for the server to exit or ctx to end.
func (p *Process) Wait(ctx context.Context) error {
	select {
	case <-p.c.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
