//go:build linux

package atomicfile

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strconv"

	"golang.org/x/sys/unix"
)

// createUnnamed makes the temporary file without a name (O_TMPFILE): the
// kernel frees it if the process dies before linkUnnamed names it. File
// systems without O_TMPFILE get a named file (its name returned).
func createUnnamed(dir, base string) (*os.File, string, error) {
	fd, err := unix.Open(dir, unix.O_TMPFILE|unix.O_WRONLY|unix.O_CLOEXEC, 0o600)
	if err == nil {
		return os.NewFile(uintptr(fd), filepath.Join(dir, "."+base+".tmp")), "", nil
	}
	return createNamed(dir, base)
}

// linkUnnamed gives f, made by createUnnamed, a hidden name beside base.
func linkUnnamed(f *os.File, dir, base string) (string, error) {
	for range 100 {
		var r [6]byte
		_, _ = rand.Read(r[:])
		name := filepath.Join(dir, "."+base+"."+hex.EncodeToString(r[:])+".tmp")
		// Linking the /proc/self/fd entry needs no privilege, where
		// AT_EMPTY_PATH needs CAP_DAC_READ_SEARCH.
		err := unix.Linkat(unix.AT_FDCWD, "/proc/self/fd/"+strconv.Itoa(int(f.Fd())), unix.AT_FDCWD, name, unix.AT_SYMLINK_FOLLOW)
		if err == nil {
			return name, nil
		}
		if !errors.Is(err, unix.EEXIST) {
			return "", &os.PathError{Op: "create", Path: name, Err: err}
		}
	}
	return "", errors.New("no free temporary file name")
}

// noProc tells a link that failed for want of /proc/self/fd.
func noProc(err error) bool {
	_, statErr := os.Stat("/proc/self/fd")
	return statErr != nil
}
