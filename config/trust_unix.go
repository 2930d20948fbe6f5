//go:build unix

package config

import (
	"fmt"
	"io/fs"
	"os"
	"os/user"
	"strconv"
	"syscall"
)

// untrusted says why a file or directory is not the user's: "is owned by
// …" or "can be written by …", "" when it is the user's.
func untrusted(fi fs.FileInfo) string {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return ""
	}
	if !trustedOwner(st.Uid) {
		return fmt.Sprintf("is owned by uid %d, not by you (uid %d) or root", st.Uid, os.Geteuid())
	}
	perm := fi.Mode().Perm()
	switch {
	case perm&0o002 != 0:
		return fmt.Sprintf("can be written by other users (mode %s)", fi.Mode())
	case perm&0o020 != 0 && !privateGroup(st.Gid):
		return fmt.Sprintf("can be written by the other members of group %d (mode %s)", st.Gid, fi.Mode())
	}
	return ""
}

// trustedOwner: the user, root, and, for root running through sudo, the
// user who ran sudo (SUDO_UID), as git trusts them.
func trustedOwner(uid uint32) bool {
	euid := os.Geteuid()
	if uid == uint32(euid) || uid == 0 {
		return true
	}
	if euid == 0 {
		if s, err := strconv.ParseUint(os.Getenv("SUDO_UID"), 10, 32); err == nil && uint32(s) == uid {
			return true
		}
	}
	return false
}

// privateGroup: gid is the user's primary group and bears the user's
// name, a group of one (a user private group).
func privateGroup(gid uint32) bool {
	u, err := user.LookupId(strconv.Itoa(os.Geteuid()))
	if err != nil || u.Gid != strconv.FormatUint(uint64(gid), 10) {
		return false
	}
	g, err := user.LookupGroupId(u.Gid)
	return err == nil && g.Name == u.Username
}
