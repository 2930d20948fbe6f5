package redact

import (
	"bytes"
	"io"
	"sync"
)

// Writer redacts what is written through it, a line at a time, so that a
// secret split across two Write calls is still found: text is held until
// its line ends ("\n" or "\r", which progress counters use) or Flush is
// called. A secret spanning a line break is masked line by line (see Add).
type Writer struct {
	r   *Redactor
	w   io.Writer
	mu  sync.Mutex
	buf []byte
}

// NewWriter returns a Writer that redacts with r into w.
func NewWriter(r *Redactor, w io.Writer) *Writer {
	return &Writer{r: r, w: w}
}

// Write holds p until its lines are complete and writes those, redacted.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	end := bytes.LastIndexAny(w.buf, "\r\n")
	if end < 0 {
		return len(p), nil
	}
	if err := w.emit(w.buf[:end+1]); err != nil {
		return 0, err
	}
	w.buf = append(w.buf[:0], w.buf[end+1:]...)
	return len(p), nil
}

// Flush writes what is held, redacted.
func (w *Writer) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.buf) == 0 {
		return nil
	}
	err := w.emit(w.buf)
	w.buf = w.buf[:0]
	return err
}

func (w *Writer) emit(b []byte) error {
	_, err := w.w.Write(w.r.Bytes(b))
	return err
}
