// Package lineio reads lines from a stranger's stream with a bound on each:
// a stdio server's stdout, a proxied client's stdin, a server-sent event
// stream. It owns the one bounded line reader those readers share, so that
// a line past the bound is refused as soon as the bound is passed, never
// held whole, and what each caller does next (fail, or skip the line and
// go on) is the caller's.
//
// bufio.Scanner is not used: after ErrTooLong it stops for good, where the
// proxy skips the line and reads on, and its split functions cannot tell a
// CR at the end of one read from a CRLF split over two without reading
// ahead, which waits on a live stream.
package lineio

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"math"
)

// ErrTooLong is returned by Read for a line longer than its bound. The
// rest of the line is left unread: Skip, or the next Read, discards it.
var ErrTooLong = errors.New("line longer than the limit")

// Reader reads bounded lines. A line ends with LF; with CR set, also with
// a lone CR (CRLF being one ending), as server-sent events end them.
type Reader struct {
	r *bufio.Reader
	// CR: a lone CR ends a line too.
	CR bool

	line []byte
	// skipping: the rest of a line that was too long is still unread.
	skipping bool
	// afterCR: the last line ended with a CR at the end of what was
	// buffered; a LF that comes next belongs to that ending.
	afterCR bool
	eof     bool
}

// NewReader reads lines from r through a 64 KiB buffer.
func NewReader(r io.Reader) *Reader {
	return &Reader{r: bufio.NewReaderSize(r, 64<<10)}
}

// Read returns the next line without its ending (LF or CRLF, with CR
// set also a lone CR; the last line may have none), refusing with
// ErrTooLong a line longer than limit bytes as soon as more than limit
// bytes of it have come, without waiting for its end. At the end of the
// stream Read returns io.EOF; another error is returned with what was read
// of the line before it. The slice is valid until the next call.
func (l *Reader) Read(limit int64) ([]byte, error) {
	// The line ending's two bytes are counted above limit: a limit that
	// means "none" (math.MaxInt64) must not wrap round to refuse all.
	limit = min(limit, math.MaxInt64-2)
	if l.skipping {
		if err := l.Skip(); err != nil {
			return nil, err
		}
	}
	l.line = l.line[:0]
	for {
		buf, err := l.fill()
		if len(buf) == 0 {
			switch {
			case len(l.line) == 0:
				return nil, err
			case err != io.EOF:
				return l.line, err
			case int64(len(l.line)) > limit:
				return nil, ErrTooLong
			}
			return l.line, nil // the last line, without an ending
		}
		if l.afterCR {
			l.afterCR = false
			if buf[0] == '\n' {
				l.r.Discard(1)
				continue
			}
		}
		end := l.end(buf)
		n := len(buf)
		if end >= 0 {
			n = end + 1
		}
		// +2: the line's ending, which is not part of it.
		if int64(len(l.line)+n) > limit+2 {
			l.skipping = end < 0
			l.afterCR = end >= 0 && buf[end] == '\r' && n == len(buf)
			l.r.Discard(n)
			return nil, ErrTooLong
		}
		l.line = grow(l.line, buf[:n], limit+2)
		if end < 0 {
			l.r.Discard(n)
			// Without CR, a CR at the end may be the first half of a CRLF.
			if held := int64(len(l.line)); held > limit && (l.CR || held > limit+1 || l.line[held-1] != '\r') {
				l.skipping = true
				return nil, ErrTooLong
			}
			continue
		}
		l.afterCR = buf[end] == '\r' && n == len(buf)
		l.r.Discard(n)
		l.line = trimEnding(l.line)
		if int64(len(l.line)) > limit {
			return nil, ErrTooLong
		}
		return l.line, nil
	}
}

// trimEnding is line without its ending: LF, CRLF or CR.
func trimEnding(line []byte) []byte {
	if n := len(line); n > 0 && line[n-1] == '\n' {
		line = line[:n-1]
	}
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	return line
}

// Skip discards the rest of the line that Read refused as too long.
func (l *Reader) Skip() error {
	for l.skipping {
		buf, err := l.fill()
		if len(buf) == 0 {
			if err == io.EOF {
				l.skipping = false
			}
			return err
		}
		end := l.end(buf)
		if end < 0 {
			l.r.Discard(len(buf))
			continue
		}
		l.afterCR = buf[end] == '\r' && end+1 == len(buf)
		l.r.Discard(end + 1)
		l.skipping = false
	}
	return nil
}

// fill returns what is buffered, reading more when nothing is; within the
// buffer a CRLF is whole, so only a CR at its very end waits for afterCR.
func (l *Reader) fill() ([]byte, error) {
	if l.r.Buffered() == 0 {
		if l.eof {
			return nil, io.EOF
		}
		if _, err := l.r.Peek(1); err != nil {
			if err == io.EOF {
				l.eof = true
			}
			return nil, err
		}
	}
	buf, _ := l.r.Peek(l.r.Buffered())
	return buf, nil
}

// end is the index of the last byte of the line ending in buf, or -1: a
// LF, a CR followed by a LF, or with CR set a lone CR.
func (l *Reader) end(buf []byte) int {
	if !l.CR {
		return bytes.IndexByte(buf, '\n')
	}
	i := bytes.IndexAny(buf, "\r\n")
	if i >= 0 && buf[i] == '\r' && i+1 < len(buf) && buf[i+1] == '\n' {
		i++
	}
	return i
}

// grow appends frag to line, doubling its capacity when it must grow but
// never past limit: append grows a large slice by a quarter at a time,
// leaving four or five times the line in garbage behind it.
func grow(line, frag []byte, limit int64) []byte {
	if need := len(line) + len(frag); need > cap(line) {
		grown := make([]byte, len(line), min(int64(max(2*cap(line), need)), limit))
		copy(grown, line)
		line = grown
	}
	return append(line, frag...)
}
