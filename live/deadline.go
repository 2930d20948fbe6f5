package live

import (
	"context"
	"errors"
	"net"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Grace is how long a listing may go on once its context is done (its
// deadline passed, or it was cancelled) to clean up: tell the server the
// request is cancelled, end its session, close its standard input and
// let it exit, kill what is left, close the connections. Every one of
// those waits stops when the grace is over, whatever the server does, so
// a check given --timeout 2s ends within three seconds: the SDK alone
// would wait five more for a server that stalls the session's closing
// DELETE, and the process clean-up five more for pipes a grandchild holds.
const Grace = time.Second

// afterGrace calls f once the grace after ctx is done is over, unless
// the function it returns is called first.
func afterGrace(ctx context.Context, f func()) (release func()) {
	var (
		mu       sync.Mutex
		timer    *time.Timer
		released bool
	)
	stop := context.AfterFunc(ctx, func() {
		mu.Lock()
		defer mu.Unlock()
		if !released {
			timer = time.AfterFunc(Grace, f)
		}
	})
	return func() {
		stop()
		mu.Lock()
		defer mu.Unlock()
		released = true
		if timer != nil {
			timer.Stop()
		}
	}
}

// graceOver returns a channel closed once the grace after ctx is done is
// over, and a function that releases its timer (the channel then never
// closes).
func graceOver(ctx context.Context) (<-chan struct{}, func()) {
	over := make(chan struct{})
	return over, afterGrace(ctx, func() { close(over) })
}

// closeSession closes cs, waiting no longer than the grace after ctx is
// done: closing a Streamable HTTP session sends a DELETE the SDK waits
// five seconds for, and a transport given to ListTransport may take any
// time. What is not done by then goes on in the background.
func closeSession(ctx context.Context, cs *mcp.ClientSession) {
	over, release := graceOver(ctx)
	defer release()
	done := make(chan struct{})
	go func() {
		_ = cs.Close()
		close(done)
	}()
	select {
	case <-done:
	case <-over:
	}
}

// errGraceOver is the error of a connection used after the grace.
var errGraceOver = errors.New("the time allowed, and its grace, are over")

// conns keeps the connections of one HTTP listing so that they can all be
// closed when its grace is over: a request the server stalls (in its
// headers, in its body, the closing DELETE) then ends at once, and no new
// one is made.
type conns struct {
	mu     sync.Mutex
	open   map[*trackedConn]bool
	closed bool
}

type trackedConn struct {
	net.Conn
	cs *conns
}

func (c *trackedConn) Close() error {
	c.cs.mu.Lock()
	delete(c.cs.open, c)
	c.cs.mu.Unlock()
	return c.Conn.Close()
}

// dial wraps a dialer so that what it dials is kept.
func (cs *conns) dial(dial func(ctx context.Context, network, addr string) (net.Conn, error)) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dial(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		cs.mu.Lock()
		defer cs.mu.Unlock()
		if cs.closed {
			c.Close()
			return nil, errGraceOver
		}
		tc := &trackedConn{Conn: c, cs: cs}
		if cs.open == nil {
			cs.open = map[*trackedConn]bool{}
		}
		cs.open[tc] = true
		return tc, nil
	}
}

// closeAll closes every connection and refuses new ones.
func (cs *conns) closeAll() {
	cs.mu.Lock()
	cs.closed = true
	open := cs.open
	cs.open = nil
	cs.mu.Unlock()
	for c := range open {
		_ = c.Conn.Close()
	}
}
