// Package atomicfile replaces the contents of files so that a reader (or a
// crash) sees either the old contents or the new, never a mix or a
// truncated file, and so that several files are replaced all or nothing.
// `mcplint fix -w`, `check --save` and `convert -o` write through it.
//
// A file's new contents are first staged in a temporary file in the same
// directory (rename is atomic only within one file system) with the
// original's owner, group and mode bits (setuid, setgid and sticky
// included), and flushed to disk; then the temporary file is renamed over
// the original. On Linux the staged file has no name until the instant
// before the rename (O_TMPFILE), so that a process killed even with SIGKILL
// leaves nothing behind; elsewhere it is a hidden file that every error
// path, and a Batch cancelled by its context, removes.
//
// What is kept and what is not:
//   - A symbolic link is followed: the file it points to is replaced and
//     the link stays.
//   - The owner and group are given to the new file. A process that may
//     not (only root may give a file away) keeps the group when it belongs
//     to it and otherwise ends up owning the file: that EPERM is ignored
//     for a process that is not root and is an error for root.
//   - A file with several hard links is rewritten in place, as gofmt -w
//     and ruff --fix rewrite every file: all its names see the new
//     contents, and its inode, owner, mode and extended attributes stay.
//     That write is not atomic: if it fails the old contents are written
//     back, but a crash during it can leave the file partly written.
//   - Extended attributes and ACLs of a file with one link are not copied
//     (the renamed file is a new inode), as with editors that save the
//     same way.
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// newFileMode is the mode of a file that did not exist.
const newFileMode fs.FileMode = 0o644

// keptModeBits are the mode bits a replaced file keeps.
const keptModeBits = fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky

// beforeRename, when set (by tests), runs on each named temporary file (or,
// for a file rewritten in place, on the file) before it replaces the
// original, and can fail the write, standing in for a full disk.
var beforeRename func(tmp string) error

// Write replaces the contents of the file at path with data, or creates it
// (mode 0644) when it does not exist.
func Write(path string, data []byte) error {
	s, err := stage(path, data)
	if err == nil {
		if err = s.name(); err == nil {
			err = s.commit()
		}
	}
	if err != nil {
		if s != nil {
			s.discard()
		}
		return fmt.Errorf("write %s: %w (the file is unchanged)", path, err)
	}
	return nil
}

// staged is a file's new contents, ready to replace it.
type staged struct {
	path   string // as given
	target string // symbolic links followed
	data   []byte
	exists bool
	// inPlace: the file has several hard links, and is rewritten through
	// f, opened on it, rather than replaced.
	inPlace bool
	f       *os.File // the temporary file, or the target when inPlace
	tmp     string   // the temporary file's name, once it has one
	owner   owner
	mode    fs.FileMode
}

func stage(path string, data []byte) (*staged, error) {
	s := &staged{path: path, target: path, data: data, mode: newFileMode}
	if resolved, err := filepath.EvalSymlinks(path); err == nil {
		s.target = resolved
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if fi, err := os.Stat(s.target); err == nil {
		if !fi.Mode().IsRegular() {
			return nil, errors.New("not a regular file")
		}
		s.exists = true
		s.mode = fi.Mode() & keptModeBits
		s.owner = ownerOf(fi)
		s.inPlace = s.owner.links > 1
	}
	if s.inPlace {
		// Opened now, without truncating, so that a file that cannot be
		// written fails before any other file of a batch is replaced.
		f, err := os.OpenFile(s.target, os.O_WRONLY, 0)
		if err != nil {
			return nil, err
		}
		s.f = f
		return s, nil
	}
	dir, base := filepath.Split(s.target)
	if dir == "" {
		dir = "."
	}
	f, tmp, err := createUnnamed(dir, base)
	if err != nil {
		return nil, err
	}
	s.f, s.tmp = f, tmp
	if err := s.fill(); err != nil {
		s.discard()
		return nil, err
	}
	return s, nil
}

// fill writes the temporary file: contents, owner, mode, flushed to disk.
// The owner comes first: changing it clears the setuid and setgid bits.
func (s *staged) fill() error {
	if _, err := s.f.Write(s.data); err != nil {
		return err
	}
	if s.exists {
		if err := s.owner.give(s.f); err != nil {
			return err
		}
	}
	// A new temporary file is 0600; give it the original's bits instead.
	if err := s.f.Chmod(s.mode); err != nil {
		return err
	}
	return s.f.Sync()
}

// name gives the staged file a name in the target's directory, if it has
// none yet.
func (s *staged) name() error {
	if s.inPlace || s.tmp != "" {
		return nil
	}
	dir, base := filepath.Split(s.target)
	if dir == "" {
		dir = "."
	}
	tmp, err := linkUnnamed(s.f, dir, base)
	if err == nil {
		s.tmp = tmp
		return nil
	}
	if !noProc(err) {
		return err
	}
	// Without /proc the unnamed file cannot be linked: stage again, named.
	f, tmp, err := createNamed(dir, base)
	if err != nil {
		return err
	}
	s.f.Close()
	s.f, s.tmp = f, tmp
	return s.fill()
}

// commit replaces the original with the staged contents.
func (s *staged) commit() error {
	if beforeRename != nil {
		at := s.tmp
		if s.inPlace {
			at = s.target
		}
		if err := beforeRename(at); err != nil {
			return err
		}
	}
	if s.inPlace {
		return s.rewrite()
	}
	if err := s.f.Close(); err != nil {
		return err
	}
	if err := os.Rename(s.tmp, s.target); err != nil {
		return err
	}
	s.f, s.tmp = nil, ""
	return nil
}

// rewrite writes the contents over the file itself, keeping its inode;
// on an error the old contents are written back.
func (s *staged) rewrite() error {
	old, err := os.ReadFile(s.target)
	if err != nil {
		return err
	}
	werr := s.overwrite(s.data)
	if werr == nil {
		err := s.f.Close()
		s.f = nil
		return err
	}
	if rerr := s.overwrite(old); rerr != nil {
		return fmt.Errorf("%w; writing the old contents back failed too (%v): the file may be partly written", werr, rerr)
	}
	return werr
}

func (s *staged) overwrite(b []byte) error {
	if _, err := s.f.WriteAt(b, 0); err != nil {
		return err
	}
	if err := s.f.Truncate(int64(len(b))); err != nil {
		return err
	}
	return s.f.Sync()
}

// discard removes what stage made.
func (s *staged) discard() {
	if s.f != nil {
		s.f.Close()
		s.f = nil
	}
	if s.tmp != "" && !s.inPlace {
		os.Remove(s.tmp)
		s.tmp = ""
	}
}
