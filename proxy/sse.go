package proxy

import (
	"bytes"
	"errors"
	"io"
	"strconv"
	"strings"

	"github.com/mcpfit/mcplint/internal/lineio"
)

// event is one server-sent event (https://html.spec.whatwg.org/multipage/server-sent-events.html).
type event struct {
	name, id string
	data     []byte
	retry    int // milliseconds, 0 when not given
}

// sseReader reads events, none larger than limit bytes (its lines, one
// byte for each line's ending): past it the stream is refused
// (errEventTooLarge) without reading the event further.
type sseReader struct {
	r       *lineio.Reader
	limit   int64
	started bool // the first line has been read
}

var errEventTooLarge = errors.New("a server-sent event larger than the limit")

func newSSEReader(r io.Reader, limit int64) *sseReader {
	lr := lineio.NewReader(r)
	lr.CR = true // a lone CR ends a line too
	return &sseReader{r: lr, limit: limit}
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

// line reads one line without its ending (LF, CRLF or a lone CR, as the
// event stream format says), adding its length and one for its ending to
// size and failing once size passes the limit. A byte order mark at the
// start of the stream is not part of the first line.
func (s *sseReader) line(size *int64) ([]byte, error) {
	line, err := s.r.Read(s.limit - *size - 1) // -1: its ending
	if errors.Is(err, lineio.ErrTooLong) {
		return nil, errEventTooLarge
	}
	if err != nil {
		return nil, err
	}
	*size += int64(len(line)) + 1
	if !s.started {
		s.started = true
		line = bytes.TrimPrefix(line, bom)
	}
	return line, nil
}

// bom is U+FEFF in UTF-8, which a stream may open with and which is
// ignored there (https://html.spec.whatwg.org/multipage/server-sent-events.html#parsing-an-event-stream).
var bom = []byte("\xef\xbb\xbf")

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
