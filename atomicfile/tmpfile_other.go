//go:build !linux

package atomicfile

import (
	"errors"
	"os"
)

// createUnnamed makes a named temporary file: only Linux has unnamed ones.
func createUnnamed(dir, base string) (*os.File, string, error) {
	return createNamed(dir, base)
}

func linkUnnamed(*os.File, string, string) (string, error) {
	return "", errors.New("internal error: an unnamed temporary file on a system without them")
}

func noProc(error) bool { return false }
