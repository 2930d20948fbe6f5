//go:build linux

package live

import (
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// setProcessGroup starts the command in a process group of its own, so that
// killing the group reaches whatever it starts (npx starts node, a shell
// script starts its server), and asks the kernel to kill it if this
// process dies first (even of SIGKILL, which no cleanup code survives).
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// start starts cmd from a goroutine locked to its OS thread until done is
// closed: the parent-death signal fires when the thread that started the
// child ends, not the process, and the Go runtime ends a thread when a
// goroutine locked to it exits. Holding the thread for the child's life
// keeps any other goroutine from locking it and taking it down.
func start(cmd *exec.Cmd, done <-chan struct{}) error {
	errc := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		err := cmd.Start()
		errc <- err
		if err == nil {
			<-done
		}
		runtime.UnlockOSThread()
	}()
	return <-errc
}

// killTree kills the process, everything it started that is still its
// descendant (a grandchild that left the process group with setsid
// included), and its process group.
func killTree(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	killDescendants(cmd.Process.Pid)
}

// killDescendants kills pid, its process group and its descendants, found
// from /proc, looking again until no new one shows: a process may fork
// while the others are being killed.
func killDescendants(pid int) {
	seen := map[int]bool{}
	for range 10 {
		tree := append([]int{pid}, descendants(pid)...)
		fresh := 0
		for _, p := range tree {
			if !seen[p] {
				seen[p] = true
				fresh++
			}
		}
		_ = syscall.Kill(-pid, syscall.SIGKILL)
		for _, p := range tree {
			_ = syscall.Kill(p, syscall.SIGKILL)
		}
		if fresh == 0 {
			return
		}
	}
}

var subreaper struct {
	sync.Mutex
	on bool
}

// AdoptOrphans makes this process, on Linux, the subreaper of every process
// its servers start: a process whose parent exits (a daemon that forks
// twice, a grandchild that starts its own session) is reparented to this
// one instead of to init, where KillOrphans finds it. It changes the whole
// process, so it is for programs that run servers (the mcplint command),
// not for libraries to call behind their caller's back. Elsewhere it does
// nothing.
func AdoptOrphans() error {
	subreaper.Lock()
	defer subreaper.Unlock()
	if subreaper.on {
		return nil
	}
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		return err
	}
	subreaper.on = true
	return nil
}

// KillOrphans kills, with what they started, the processes AdoptOrphans
// brought to this process: its children that no running check waits for
// and that are in the process group of a server it started, or in a
// session of their own (children this process started otherwise share its
// session). Call it when the checks are over.
func KillOrphans() {
	self := os.Getpid()
	_, ownSession, _ := groupOf(self)
	for range 10 {
		orphans := 0
		for _, p := range childrenOf(self) {
			if running.has(p) {
				continue
			}
			group, session, ok := groupOf(p)
			if !ok || (!serverGroups.has(group) && session == ownSession) {
				continue
			}
			orphans++
			killDescendants(p)
			// Reap it: nothing else waits for an adopted process.
			var ws syscall.WaitStatus
			_, _ = syscall.Wait4(p, &ws, 0, nil)
		}
		if orphans == 0 {
			return
		}
	}
}

// parents reads the parent of every process from /proc.
func parents() map[int]int {
	out := map[int]int{}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return out
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if pp, ok := parentOf(pid); ok {
			out[pid] = pp
		}
	}
	return out
}

// parentOf reads a process's parent from /proc.
func parentOf(pid int) (int, bool) {
	f, ok := statFields(pid)
	if !ok {
		return 0, false
	}
	pp, err := strconv.Atoi(f[1])
	return pp, err == nil
}

// groupOf reads a process's process group and session from /proc.
func groupOf(pid int) (group, session int, ok bool) {
	f, ok := statFields(pid)
	if !ok {
		return 0, 0, false
	}
	g, err1 := strconv.Atoi(f[2])
	s, err2 := strconv.Atoi(f[3])
	return g, s, err1 == nil && err2 == nil
}

// statFields are the fields of /proc/PID/stat after the command name
// (state, parent, process group, session, …). The name, in parentheses,
// may itself hold spaces and parentheses.
func statFields(pid int) ([]string, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return nil, false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return nil, false
	}
	f := strings.Fields(s[i+1:])
	return f, len(f) >= 4
}

func childrenOf(pid int) []int {
	var out []int
	for p, pp := range parents() {
		if pp == pid {
			out = append(out, p)
		}
	}
	return out
}

// descendants lists the processes below pid.
func descendants(pid int) []int {
	kids := map[int][]int{}
	for p, pp := range parents() {
		kids[pp] = append(kids[pp], p)
	}
	var out []int
	queue := []int{pid}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, k := range kids[p] {
			out = append(out, k)
			queue = append(queue, k)
		}
	}
	return out
}
