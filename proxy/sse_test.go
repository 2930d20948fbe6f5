package proxy

import (
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
)

// TestSSELineEndings: an event stream's lines end with CRLF, a lone LF or
// a lone CR (https://html.spec.whatwg.org/multipage/server-sent-events.html#parsing-an-event-stream),
// whatever the reads split, and a byte order mark opening the stream is
// ignored, once. Each stream is read whole and a byte a read
// (iotest.OneByteReader puts every CR at the end of a read, its LF in the
// next).
func TestSSELineEndings(t *testing.T) {
	for _, c := range []struct {
		name, src string
		limit     int64
		want      []string // each event's data; "!" for errEventTooLarge
	}{
		{"LF", "data: a\n\ndata: b\n\n", 100, []string{"a", "b"}},
		{"CRLF", "data: a\r\n\r\ndata: b\r\n\r\n", 100, []string{"a", "b"}},
		{"CR", "data: a\r\rdata: b\r\r", 100, []string{"a", "b"}},
		{"CR, lines of one event", "event: x\rdata: a\rdata: b\r\r", 100, []string{"a\nb"}},
		{"mixed", "data: a\rdata: b\ndata: c\r\n\r\n", 100, []string{"a\nb\nc"}},
		// CRLF is one ending: read as two, the LF would be a blank line
		// ending the event between its two data lines.
		{"CRLF inside an event", "data: a\r\ndata: b\r\n\r\n", 100, []string{"a\nb"}},
		{"CR then LF is two", "data: a\r\n\ndata: b\r\n\r\n", 100, []string{"a", "b"}},
		{"CR CR LF", "data: a\r\r\ndata: b\n\n", 100, []string{"a", "b"}},
		{"at the end without a blank line", "data: a\r", 100, []string{"a"}},
		{"BOM", "\ufeffdata: a\n\n", 100, []string{"a"}},
		{"BOM on its own line", "\ufeff\ndata: a\n\n", 100, []string{"a"}},
		{"BOM only at the start", "data: a\n\n\ufeffdata: b\n\ndata: c\n\n", 100, []string{"a", "c"}},
		{"two BOMs", "\ufeff\ufeffdata: a\n\ndata: b\n\n", 100, []string{"b"}},
		// The bound holds whatever ends the lines: it counts an event's
		// lines and one byte for each ending.
		{"bound, LF", "data: 0123456789\n\n", 18, []string{"0123456789"}},
		{"bound, CRLF", "data: 0123456789\r\n\r\n", 18, []string{"0123456789"}},
		{"bound, CR", "data: 0123456789\r\r", 18, []string{"0123456789"}},
		{"past the bound, LF", "data: 0123456789\n\n", 17, []string{"!"}},
		{"past the bound, CR", "data: 0123456789\r\r", 17, []string{"!"}},
		{"past the bound, CRLF", "data: 0123456789\r\n\r\n", 17, []string{"!"}},
		{"past the bound over lines", "data: 0123\rdata: 4567\rdata: 89\r\r", 20, []string{"!"}},
		{"blank lines start over", "data: 0123\r\r\r\r\r\rdata: 4567\r\r", 12, []string{"0123", "4567"}},
		{"a long line without end", "data: " + strings.Repeat("x", 1000), 100, []string{"!"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, oneByte := range []bool{false, true} {
				var r io.Reader = strings.NewReader(c.src)
				if oneByte {
					r = iotest.OneByteReader(r)
				}
				if got := events(t, newSSEReader(r, c.limit)); !slices.Equal(got, c.want) {
					t.Errorf("%q (a byte a read: %v): %q, want %q", c.src, oneByte, got, c.want)
				}
			}
		})
	}
}

// events reads the data of sr's events until the end or an error.
func events(t *testing.T, sr *sseReader) []string {
	t.Helper()
	var out []string
	for range 100 {
		ev, err := sr.next()
		if errors.Is(err, errEventTooLarge) {
			return append(out, "!")
		}
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(ev.data))
	}
	t.Fatal("no end")
	return nil
}
