package pin

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcpfit/mcplint/manifest"
)

// DefaultMaxSize bounds a lock file that Read accepts (mcplint's
// --max-lock-size). A server's listing is bounded by the live check's
// limits (32 MiB of tools by default), and a lock holds a digest and a
// definition a tool: a lock past this size pins no real server, and
// reading it is the cost a hostile one would impose. Checking against a
// lock of this size (some 100,000 tools) peaks at about 600 MB
// (docs/promises.md).
const DefaultMaxSize int64 = 32 << 20

// TooLargeError is a lock file larger than the limit Read was given.
type TooLargeError struct {
	Path  string
	Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s: larger than the limit of %s for a lock file; it was not read", e.Path, manifest.SizeText(e.Limit))
}

// Read reads and verifies the lock file at path, refusing one larger than
// maxSize bytes without reading past the limit. A missing file is an error
// for which errors.Is(err, fs.ErrNotExist) holds. A lock file is one that
// lock wrote: anything but a regular file is refused unread, since a
// repository can commit mcplint.lock as a link to /dev/stdin or /dev/tty,
// which would hold check --locked until input came.
func Read(path string, maxSize int64) (*File, error) {
	if err := manifest.Regular(path, "a lock file"); err != nil {
		return nil, err
	}
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	if fi, err := fh.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() > maxSize {
		return nil, &TooLargeError{Path: path, Limit: maxSize}
	}
	src, err := io.ReadAll(io.LimitReader(fh, maxSize+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if int64(len(src)) > maxSize {
		return nil, &TooLargeError{Path: path, Limit: maxSize}
	}
	return Parse(path, src)
}

// wellFormed reads src's first JSON value token by token, as RFC 8259
// and I-JSON (RFC 7493) define it: an object that names a member twice
// is refused, since a reviewer reads one of the two and a decoder takes
// the other.
func wellFormed(path string, src []byte) error {
	dec := jsontext.NewDecoder(bytes.NewReader(src))
	for {
		if _, err := dec.ReadToken(); err != nil {
			var se *jsontext.SyntacticError
			if errors.As(err, &se) {
				at := (&manifest.Manifest{Src: src}).Position(int(se.ByteOffset))
				return fmt.Errorf("%s:%d:%d: not a lock file: %v", path, at.Line, at.Column, syntaxMessage(se))
			}
			return fmt.Errorf("%s: not a lock file: %v", path, err)
		}
		if dec.StackDepth() == 0 {
			return nil
		}
	}
}

// syntaxMessage words a syntax error without the decoder's package name.
func syntaxMessage(se *jsontext.SyntacticError) string {
	msg := se.Err.Error()
	if errors.Is(se.Err, jsontext.ErrDuplicateName) && se.JSONPointer != "" {
		msg += fmt.Sprintf(" (%s)", se.JSONPointer)
	}
	return msg
}

// verify checks that every tool's digest is the digest of the definition
// stored beside it (each definition already canonical): a lock that does
// not match itself shows a reviewer one tool and pins another.
func (f *File) verify(path string, src []byte) error {
	for _, name := range f.ServerNames() {
		for _, key := range sortedKeys(f.Servers[name].Tools) {
			p := f.Servers[name].Tools[key]
			tool := jsontext.Pointer("").AppendToken("servers").AppendToken(name).AppendToken("tools").AppendToken(key)
			switch {
			case len(p.Definition) == 0:
				return placed(path, src, tool, "server %q: tool %q has no definition to verify its digest against; %s", name, key, relock)
			case Digest(p.Definition) != p.Digest:
				return placed(path, src, tool.AppendToken("digest"), "server %q, tool %q: the digest %s is not the digest of the definition beside it (%s): the lock does not match itself; %s", name, key, p.Digest, Digest(p.Definition), relock)
			}
		}
	}
	return nil
}

// relock is what to do about a lock that does not verify: mcplint lock
// reads the file it adds to, and refuses this one too.
const relock = "remove the server's entry (or the file), lock it again with mcplint lock, and review what is written"

// placed is an error at the value ptr points to in src.
func placed(path string, src []byte, ptr jsontext.Pointer, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	off := offsetOf(src, ptr)
	if off < 0 {
		return fmt.Errorf("%s: %s", path, msg)
	}
	at := (&manifest.Manifest{Src: src}).Position(off)
	return fmt.Errorf("%s:%d:%d: %s", path, at.Line, at.Column, msg)
}

// offsetOf is where the value ptr points to starts in src, -1 when it is
// not found.
func offsetOf(src []byte, ptr jsontext.Pointer) int {
	dec := jsontext.NewDecoder(bytes.NewReader(src))
	for {
		if _, err := dec.ReadToken(); err != nil {
			return -1
		}
		if dec.StackPointer() != ptr {
			continue
		}
		// The member's name was just read: its value follows the colon.
		off := int(dec.InputOffset())
		for off < len(src) && bytes.IndexByte([]byte(" \t\r\n:"), src[off]) >= 0 {
			off++
		}
		return off
	}
}
