//go:build unix

package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// owner is who owns a file, and how many names it has.
type owner struct {
	uid, gid int
	links    uint64
	known    bool
}

func ownerOf(fi fs.FileInfo) owner {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return owner{links: 1}
	}
	return owner{uid: int(st.Uid), gid: int(st.Gid), links: uint64(st.Nlink), known: true}
}

// give gives f the owner and group. Only root may give a file away: for
// another process EPERM is expected, and it keeps at least the group when
// it belongs to it.
func (o owner) give(f *os.File) error {
	if !o.known {
		return nil
	}
	err := f.Chown(o.uid, o.gid)
	if err == nil || os.Geteuid() == 0 || !errors.Is(err, syscall.EPERM) {
		return err
	}
	if err := f.Chown(-1, o.gid); err != nil && !errors.Is(err, syscall.EPERM) {
		return err
	}
	return nil
}
