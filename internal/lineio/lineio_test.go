package lineio

import (
	"errors"
	"io"
	"math"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
)

// readAll reads every line of src under limit, the ones too long as "!",
// whole (r as it is) and a byte a read (iotest.OneByteReader), which puts
// every CR at the end of what is buffered.
func readAll(t *testing.T, src string, cr bool, limit int64) []string {
	t.Helper()
	var want []string
	for _, oneByte := range []bool{false, true} {
		var r io.Reader = strings.NewReader(src)
		if oneByte {
			r = iotest.OneByteReader(r)
		}
		l := NewReader(r)
		l.CR = cr
		var got []string
		for range 1000 {
			line, err := l.Read(limit)
			if errors.Is(err, ErrTooLong) {
				got = append(got, "!")
				continue
			}
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%q: %v", src, err)
			}
			got = append(got, string(line))
		}
		if oneByte && !slices.Equal(got, want) {
			t.Errorf("%q a byte a read: %q, whole: %q", src, got, want)
		}
		want = got
	}
	return want
}

func TestRead(t *testing.T) {
	for _, c := range []struct {
		src   string
		cr    bool
		limit int64
		want  []string
	}{
		{"a\nb\n", false, 10, []string{"a", "b"}},
		{"a\nb", false, 10, []string{"a", "b"}},
		{"", false, 10, nil},
		{"\n\n", false, 10, []string{"", ""}},
		{"a\r\nb\r\n", false, 10, []string{"a", "b"}},
		// Without CR, a lone CR is text.
		{"a\rb\n", false, 10, []string{"a\rb"}},
		{"a\r", false, 10, []string{"a\r"}},
		// With it: CR, LF and CRLF each end one line.
		{"a\rb\n", true, 10, []string{"a", "b"}},
		{"a\r\nb\r\n", true, 10, []string{"a", "b"}},
		{"a\r\rb", true, 10, []string{"a", "", "b"}},
		{"\r\n\r\n", true, 10, []string{"", ""}},
		{"\n\r", true, 10, []string{"", ""}},
		{"\r\r\n\n", true, 10, []string{"", "", ""}},
		{"a\r", true, 10, []string{"a"}},
		// The bound is on the line, not its ending; a line past it is
		// skipped whole and reading goes on.
		{"abcd\nabcde\nab\n", false, 4, []string{"abcd", "!", "ab"}},
		{"abcd\r\nabcde\r\nab", false, 4, []string{"abcd", "!", "ab"}},
		{"abcdefgh\nab\n", false, 4, []string{"!", "ab"}},
		{"abcdefgh", false, 4, []string{"!"}},
		{"abcd\r", false, 4, []string{"!"}},
		{"abcd\rx\n", false, 4, []string{"!"}},
		{"abcdefgh\rab\r\nc", true, 4, []string{"!", "ab", "c"}},
		{"abcdefgh\r\nab\r", true, 4, []string{"!", "ab"}},
		{"abcde\r\nab", true, 4, []string{"!", "ab"}},
		{"abcd\r\nab", true, 4, []string{"abcd", "ab"}},
		{"abcd\r\r\n", true, 4, []string{"abcd", ""}},
	} {
		if got := readAll(t, c.src, c.cr, c.limit); !slices.Equal(got, c.want) {
			t.Errorf("%q (CR %v, limit %d): %q, want %q", c.src, c.cr, c.limit, got, c.want)
		}
	}
}

// TestReadRefusesBeforeTheEnd: a line past the bound is refused once the
// bound is passed, not when the line ends: a stream that never ends the
// line would otherwise be waited on (and held) without end.
func TestReadRefusesBeforeTheEnd(t *testing.T) {
	pr, pw := io.Pipe()
	go func() {
		pw.Write([]byte(strings.Repeat("x", 100)))
		// No end: the pipe stays open, the line unfinished.
	}()
	defer pw.Close()
	l := NewReader(pr)
	if _, err := l.Read(50); !errors.Is(err, ErrTooLong) {
		t.Fatalf("err %v, want ErrTooLong", err)
	}
}

// TestReadError: an error other than the end of the stream comes with the
// part of the line read before it.
func TestReadError(t *testing.T) {
	boom := errors.New("boom")
	l := NewReader(io.MultiReader(strings.NewReader("ab"), iotest.ErrReader(boom)))
	line, err := l.Read(10)
	if string(line) != "ab" || !errors.Is(err, boom) {
		t.Errorf("%q, %v; want \"ab\", boom", line, err)
	}
}

// TestReadGrowsByDoubling: a long line is held in a buffer that doubles,
// never past the bound, rather than in the many outgrown copies append
// leaves behind.
func TestReadGrowsByDoubling(t *testing.T) {
	const limit = 1 << 20
	l := NewReader(iotest.HalfReader(strings.NewReader(strings.Repeat("x", 1<<20) + "\n")))
	line, err := l.Read(limit)
	if err != nil || len(line) != 1<<20 {
		t.Fatalf("%d bytes, %v", len(line), err)
	}
	if cap(line) > limit+2 {
		t.Errorf("capacity %d past the limit %d", cap(line), limit)
	}
}

func BenchmarkRead(b *testing.B) {
	src := strings.Repeat(`{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}`+"\n", 1000)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		l := NewReader(strings.NewReader(src))
		for {
			if _, err := l.Read(1 << 20); err != nil {
				break
			}
		}
	}
}

// FuzzRead: however the reads fall, the lines are the same, none past the
// bound, and with CR none holds a CR or a LF.
func FuzzRead(f *testing.F) {
	for _, s := range []string{"a\r\nb\rc\n", "abcdefgh\r\r\n\n", "\r", "x\ry"} {
		f.Add(s, uint8(4), true)
		f.Add(s, uint8(4), false)
	}
	f.Fuzz(func(t *testing.T, src string, limit uint8, cr bool) {
		lines := readAll(t, src, cr, int64(limit))
		for _, line := range lines {
			if line != "!" && len(line) > int(limit) {
				t.Fatalf("%q: line %q past the limit %d", src, line, limit)
			}
			if cr && line != "!" && strings.ContainsAny(line, "\r\n") {
				t.Fatalf("%q: line %q holds an ending", src, line)
			}
		}
	})
}

// TestReadNoLimit: math.MaxInt64, the largest limit, reads lines as they
// are rather than wrapping round to refuse every one.
func TestReadNoLimit(t *testing.T) {
	l := NewReader(strings.NewReader("a\r\nbc\n"))
	for _, want := range []string{"a", "bc"} {
		got, err := l.Read(math.MaxInt64)
		if err != nil || string(got) != want {
			t.Fatalf("Read = %q, %v; want %q", got, err, want)
		}
	}
}
