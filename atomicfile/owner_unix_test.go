//go:build unix

package atomicfile

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
)

// TestKeepsOwner: root gives the new file the old one's owner and group.
func TestKeepsOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("only root can give a file away")
	}
	p := filepath.Join(t.TempDir(), "m.json")
	writeFile(t, p, "old", 0o640|os.ModeSetgid)
	if err := os.Chown(p, 4242, 4343); err != nil {
		t.Fatal(err)
	}
	// chown clears setgid: set it again, as an owner would.
	if err := os.Chmod(p, 0o640|os.ModeSetgid); err != nil {
		t.Fatal(err)
	}
	if err := Write(p, []byte("new")); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(p)
	st := fi.Sys().(*syscall.Stat_t)
	if st.Uid != 4242 || st.Gid != 4343 || fi.Mode()&keptModeBits != 0o640|os.ModeSetgid {
		t.Errorf("owner %d:%d, mode %v", st.Uid, st.Gid, fi.Mode())
	}
}

// TestOwnerNotRoot: a process that may not give the file away still writes
// it (the EPERM is expected) and owns the new file.
func TestOwnerNotRoot(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root, to run the writer as another user")
	}
	// Not under t.TempDir, which only its owner may enter.
	dir, err := os.MkdirTemp("", "atomicfile-owner-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	for d := filepath.Dir(dir); d != "/"; d = filepath.Dir(d) {
		if fi, err := os.Stat(d); err != nil || fi.Mode()&0o001 == 0 {
			t.Skipf("%s is not searchable by another user", d)
		}
	}
	p := filepath.Join(dir, "m.json")
	writeFile(t, p, "old", 0o666)
	const nobody = 65534
	// A copy of this binary that the other user may run.
	bin, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	helper := filepath.Join(dir, "helper")
	if err := os.WriteFile(helper, bin, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(helper)
	cmd.Env = append(os.Environ(), helperEnv+"=write", "ATOMICFILE_TEST_PATH="+p)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("write as another user: %v\n%s", err, out)
	}
	fi, _ := os.Stat(p)
	if st := fi.Sys().(*syscall.Stat_t); read(t, p) != "new" || st.Uid != nobody {
		t.Errorf("contents %q, owner %d", read(t, p), st.Uid)
	}
	if got := names(t, dir); !slices.Equal(got, []string{"helper", "m.json"}) {
		t.Errorf("files left: %v", got)
	}
}
