package proxy

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strconv"
	"strings"
)

// event is one server-sent event (https://html.spec.whatwg.org/multipage/server-sent-events.html).
type event struct {
	name, id string
	data     []byte
	retry    int // milliseconds, 0 when not given
}

// sseReader reads events, none larger than limit bytes: past it the
// stream is refused (errEventTooLarge) without reading the event further.
type sseReader struct {
	r     *bufio.Reader
	limit int64
}

var errEventTooLarge = errors.New("a server-sent event larger than the limit")

func newSSEReader(r io.Reader, limit int64) *sseReader {
	return &sseReader{r: bufio.NewReaderSize(r, 64<<10), limit: limit}
}

// next returns the next event that has data; io.EOF at the end.
func (s *sseReader) next() (event, error) {
	var ev event
	var data bytes.Buffer
	size := int64(0)
	hasData := false
	for {
		line, err := s.line(&size)
		if err != nil {
			if err == io.EOF && hasData {
				ev.data = data.Bytes()
				return ev, nil
			}
			return event{}, err
		}
		if len(line) == 0 {
			if hasData {
				ev.data = data.Bytes()
				return ev, nil
			}
			ev, size = event{}, 0
			continue
		}
		if line[0] == ':' {
			continue // a comment: keep-alive
		}
		field, value, _ := strings.Cut(string(line), ":")
		value = strings.TrimPrefix(value, " ")
		switch field {
		case "data":
			if hasData {
				data.WriteByte('\n')
			}
			data.WriteString(value)
			hasData = true
		case "event":
			ev.name = value
		case "id":
			if !strings.ContainsRune(value, 0) {
				ev.id = value
			}
		case "retry":
			if n, err := strconv.Atoi(value); err == nil && n >= 0 {
				ev.retry = n
			}
		}
	}
}

// line reads one line without its ending (LF, CRLF or CR), adding its
// length to size and failing once size passes the limit.
func (s *sseReader) line(size *int64) ([]byte, error) {
	var out []byte
	for {
		frag, err := s.r.ReadSlice('\n')
		*size += int64(len(frag))
		if *size > s.limit {
			return nil, errEventTooLarge
		}
		out = append(out, frag...)
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil && (err != io.EOF || len(out) == 0) {
			return nil, err
		}
		break
	}
	out = bytes.TrimRight(out, "\r\n")
	// A lone CR also ends a line: keep the part before it, the rest is
	// the next line's (rare; servers write LF).
	if i := bytes.IndexByte(out, '\r'); i >= 0 {
		out = out[:i]
	}
	return out, nil
}

// writeEvent writes one message event.
func writeEvent(w io.Writer, id string, data []byte) error {
	var b bytes.Buffer
	if id != "" {
		b.WriteString("id: " + id + "\n")
	}
	b.WriteString("event: message\n")
	for _, line := range bytes.Split(data, []byte{'\n'}) {
		b.WriteString("data: ")
		b.Write(bytes.TrimRight(line, "\r"))
		b.WriteByte('\n')
	}
	b.WriteByte('\n')
	_, err := w.Write(b.Bytes())
	return err
}
