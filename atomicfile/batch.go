package atomicfile

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// Batch replaces several files all or nothing, as far as a file system
// allows: every file's new contents are staged first, then each original
// is checked to still hold what was read, and only then are the originals
// replaced, one rename after the other. Anything that fails before the
// first rename leaves every file untouched and no temporary file behind.
type Batch struct {
	files []batchFile
}

type batchFile struct {
	path     string
	old, new []byte
}

// Add adds a file to replace: old is what was read from it, new what to
// write.
func (b *Batch) Add(path string, old, new []byte) {
	b.files = append(b.files, batchFile{path, old, new})
}

// Len is the number of files added.
func (b *Batch) Len() int { return len(b.files) }

// ErrNothingWritten is in the chain of every error of Commit before the
// first file was replaced.
var ErrNothingWritten = errors.New("no file was written")

// ChangedError: a file no longer holds what was read from it (another
// program, an editor or a second run, wrote it in the meantime). Writing
// over it would lose that write.
type ChangedError struct {
	Path string
}

func (e *ChangedError) Error() string {
	return e.Path + " changed since it was read (another program wrote it)"
}

// PartialError: replacing a file failed after others were replaced.
type PartialError struct {
	Written, NotWritten []string
	Err                 error
}

func (e *PartialError) Error() string {
	return fmt.Sprintf("%v; written: %s; not written: %s", e.Err, strings.Join(e.Written, ", "), strings.Join(e.NotWritten, ", "))
}

func (e *PartialError) Unwrap() error { return e.Err }

// Commit replaces the files. ctx is looked at until the first rename (a
// Ctrl-C then leaves every file as it was); the renames, a few
// microseconds each, are not interrupted. An error before the first
// rename wraps ErrNothingWritten (and is a *ChangedError when a file
// changed); after it, it is a *PartialError naming what was written.
func (b *Batch) Commit(ctx context.Context) error {
	staged := make([]*staged, 0, len(b.files))
	discard := func() {
		for _, s := range staged {
			s.discard()
		}
	}
	nothing := func(err error) error {
		discard()
		return fmt.Errorf("%w; %w", err, ErrNothingWritten)
	}
	for _, f := range b.files {
		if err := ctx.Err(); err != nil {
			return nothing(err)
		}
		s, err := stage(f.path, f.new)
		if err != nil {
			return nothing(fmt.Errorf("write %s: %w", f.path, err))
		}
		staged = append(staged, s)
	}
	if err := ctx.Err(); err != nil {
		return nothing(err)
	}
	for i, f := range b.files {
		if err := unchanged(staged[i].target, f.old); err != nil {
			if errors.Is(err, errChanged) {
				err = &ChangedError{Path: f.path}
			}
			return nothing(err)
		}
	}
	for i, s := range staged {
		if err := s.name(); err != nil {
			return nothing(fmt.Errorf("write %s: %w", b.files[i].path, err))
		}
	}
	if err := ctx.Err(); err != nil {
		return nothing(err)
	}
	for i, s := range staged {
		if err := s.commit(); err != nil {
			p := &PartialError{Err: fmt.Errorf("write %s: %w", s.path, err)}
			for _, w := range b.files[:i] {
				p.Written = append(p.Written, w.path)
			}
			for _, n := range b.files[i:] {
				p.NotWritten = append(p.NotWritten, n.path)
			}
			discard()
			if i == 0 {
				return fmt.Errorf("%w; %w", p.Err, ErrNothingWritten)
			}
			return p
		}
	}
	return nil
}

var errChanged = errors.New("changed")

// unchanged checks that the file at path holds old, reading no more than
// one byte past it.
func unchanged(path string, old []byte) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	now := make([]byte, len(old)+1)
	n, err := io.ReadFull(f, now)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return err
	}
	if !bytes.Equal(now[:n], old) {
		return errChanged
	}
	return nil
}
