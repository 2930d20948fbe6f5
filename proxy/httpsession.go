package proxy

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"time"
)

// The sessions of the Streamable HTTP front and their streams: where each
// message from the server goes.

// frontSession is a session of the proxy's, and the downstream of its
// conversation with the server.
type frontSession struct {
	f   *httpFront
	id  string // "" for the sessionless conversation
	s   *session
	up  upstream
	gen context.CancelFunc

	mu       sync.Mutex
	streams  map[string]*stream // by the id of each request they answer
	order    []*stream          // request streams open, oldest first
	get      *stream
	backlog  [][]byte
	lastUse  time.Time
	closed   bool
	notified bool // the client was told the session is over
}

// stream is one response stream: a POST's, or the GET's.
type stream struct {
	ch     chan outMsg
	done   chan struct{} // closed when the client is gone or the stream ends
	once   sync.Once
	open   map[string]bool // requests not answered yet
	modern bool
	// listen: the stream of a subscriptions/listen request (2026-07-28),
	// which carries the change notifications the client asked for.
	listen bool
}

type outMsg struct {
	b      []byte
	status int
	final  string // the id the message answers, "" for none
}

func newStream(ids []string, modern bool) *stream {
	st := &stream{ch: make(chan outMsg, streamBuffer), done: make(chan struct{}), open: map[string]bool{}, modern: modern}
	for _, id := range ids {
		st.open[id] = true
	}
	return st
}

func (st *stream) end() { st.once.Do(func() { close(st.done) }) }

// push queues a message for the stream, waiting while the client reads
// slowly; false when the stream is gone.
func (st *stream) push(m outMsg) bool {
	select {
	case st.ch <- m:
		return true
	case <-st.done:
		return false
	}
}

// forget ends a session that never began.
func (f *httpFront) forget(fs *frontSession) {
	f.mu.Lock()
	if f.sessions[fs.id] == fs {
		delete(f.sessions, fs.id)
	}
	f.mu.Unlock()
	go fs.close()
}

// sessionFor finds the session a request belongs to, or starts it: a
// session of its own for initialize, the sessionless one otherwise. On
// failure it returns the status to answer with.
func (f *httpFront) sessionFor(r *http.Request, initialize bool) (*frontSession, bool, int) {
	id := r.Header.Get("Mcp-Session-Id")
	f.mu.Lock()
	defer f.mu.Unlock()
	if id != "" && !initialize {
		fs := f.sessions[id]
		if fs == nil {
			return nil, false, http.StatusNotFound
		}
		fs.touch()
		return fs, false, 0
	}
	if !initialize {
		if f.stateless == nil {
			fs, err := f.start("")
			if err != nil {
				return nil, false, http.StatusBadGateway
			}
			f.stateless = fs
		}
		f.stateless.touch()
		return f.stateless, false, 0
	}
	if len(f.sessions) >= maxSessions {
		f.evictLocked()
	}
	fs, err := f.start(newSessionID())
	if err != nil {
		return nil, false, http.StatusBadGateway
	}
	f.sessions[fs.id] = fs
	return fs, true, 0
}

func (f *httpFront) evictLocked() {
	var oldest *frontSession
	for _, fs := range f.sessions {
		if oldest == nil || fs.lastUsed().Before(oldest.lastUsed()) {
			oldest = fs
		}
	}
	if oldest != nil {
		delete(f.sessions, oldest.id)
		go oldest.close()
	}
}

// start begins a session and its conversation with the server.
func (f *httpFront) start(id string) (*frontSession, error) {
	fs := &frontSession{f: f, id: id, streams: map[string]*stream{}, lastUse: time.Now()}
	fs.s = newSession(f.p, fs, true)
	up, done, err := f.p.dial(f.ctx, fs.s)
	if err != nil {
		fmt.Fprintf(f.p.stderr, "mcplint proxy: %v\n", f.p.serverFailure(err))
		return nil, err
	}
	fs.s.up, fs.up = up, up
	go func() {
		err, ok := <-done
		if !ok || err == nil {
			return
		}
		fs.s.serverGone(err)
		fmt.Fprintf(f.p.stderr, "mcplint proxy: %v\n", f.p.serverFailure(err))
		f.drop(fs)
	}()
	return fs, nil
}

// drop forgets a session whose server is gone; its streams end.
func (f *httpFront) drop(fs *frontSession) {
	f.mu.Lock()
	if f.sessions[fs.id] == fs {
		delete(f.sessions, fs.id)
	}
	if f.stateless == fs {
		f.stateless = nil
	}
	f.mu.Unlock()
	go fs.close()
}

func newSessionID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func (fs *frontSession) touch() {
	fs.mu.Lock()
	fs.lastUse = time.Now()
	fs.mu.Unlock()
}

func (fs *frontSession) lastUsed() time.Time {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	return fs.lastUse
}

// register makes st the stream of the requests ids, unless one of them is
// in flight already.
func (fs *frontSession) register(st *stream, ids []string) bool {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	for _, id := range ids {
		if fs.streams[id] != nil {
			return false
		}
	}
	for _, id := range ids {
		fs.streams[id] = st
	}
	fs.order = append(fs.order, st)
	return true
}

func (fs *frontSession) unregister(st *stream) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	for id, s := range fs.streams {
		if s == st {
			delete(fs.streams, id)
		}
	}
	for i, s := range fs.order {
		if s == st {
			fs.order = append(fs.order[:i], fs.order[i+1:]...)
			break
		}
	}
	st.end()
}

// clientLeft handles a client that closed a request's stream: from
// 2026-07-28 that cancels the requests it had not been answered.
func (fs *frontSession) clientLeft(st *stream) {
	if !st.modern {
		return
	}
	for id := range st.open {
		note := []byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":` + id + `}}`)
		_ = fs.s.fromClient(context.Background(), note)
	}
}

// send routes a message from the server: to the stream of the request it
// answers or was sent for; otherwise to the GET stream (before
// 2026-07-28), or a subscriptions/listen stream (from 2026-07-28), or the
// stream of the request most recently made (a server over stdio does not
// say which request a message belongs to), or it is kept until a GET
// stream opens.
func (fs *frontSession) send(b []byte, r route) error {
	m := outMsg{b: b, status: r.status}
	if r.final {
		m.final = r.related
	}
	fs.mu.Lock()
	st := fs.streams[r.related]
	if st == nil && r.final {
		fs.mu.Unlock()
		return nil // its client is gone
	}
	if st == nil {
		listen := slices.IndexFunc(fs.order, func(s *stream) bool { return s.listen })
		switch {
		case fs.get != nil:
			st = fs.get
		case listen >= 0:
			st = fs.order[listen]
		case len(fs.order) > 0:
			st = fs.order[len(fs.order)-1]
		default:
			if len(fs.backlog) == backlogSize {
				fs.backlog = fs.backlog[1:]
			}
			fs.backlog = append(fs.backlog, b)
			fs.mu.Unlock()
			return nil
		}
	}
	fs.mu.Unlock()
	if !st.push(m) {
		return errors.New("the client's stream is gone")
	}
	return nil
}

// close ends the session: its conversation with the server (and the
// server's process), and its streams.
func (fs *frontSession) close() {
	fs.mu.Lock()
	if fs.closed {
		fs.mu.Unlock()
		return
	}
	fs.closed = true
	streams := append([]*stream(nil), fs.order...)
	if fs.get != nil {
		streams = append(streams, fs.get)
	}
	fs.mu.Unlock()
	if fs.up != nil {
		fs.up.close()
	}
	fs.s.wait()
	for _, st := range streams {
		st.end()
	}
}
