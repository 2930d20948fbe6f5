// Package atomicfile replaces a file's contents so that a reader (or a crash)
// sees either the old contents or the new, never a mix or a truncated file.
// `mcplint fix -w` writes through it.
//
// Write puts the new contents in a temporary file in the same directory
// (rename is atomic only within one file system), gives it the original's
// permission bits, flushes it to disk, and renames it over the original. On
// any error the original is left untouched and the temporary file removed.
// A symbolic link is followed: the file it points to is replaced and the link
// stays. Ownership, extended attributes and hard links are not carried over
// (the renamed file is a new inode), as with editors that save the same way.
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

// beforeRename, when set (by tests), runs on the written temporary file and
// can fail the write, standing in for a full disk.
var beforeRename func(tmp string) error

// Write replaces the contents of the file at path with data, or creates it
// (mode 0644) when it does not exist.
func Write(path string, data []byte) error {
	if err := write(path, data); err != nil {
		return fmt.Errorf("write %s: %w (the file is unchanged)", path, err)
	}
	return nil
}

func write(path string, data []byte) (err error) {
	target := path
	if resolved, err := filepath.EvalSymlinks(path); err == nil {
		target = resolved
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	mode := newFileMode
	if fi, err := os.Stat(target); err == nil {
		if !fi.Mode().IsRegular() {
			return errors.New("not a regular file")
		}
		mode = fi.Mode().Perm()
	}
	dir, base := filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if _, err := f.Write(data); err != nil {
		return err
	}
	// CreateTemp makes the file 0600; give it the original's bits instead.
	if err := f.Chmod(mode); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if beforeRename != nil {
		if err := beforeRename(tmp); err != nil {
			return err
		}
	}
	return os.Rename(tmp, target)
}
