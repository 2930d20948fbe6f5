package live

import "sync"

// running holds the pids of the servers being checked, which KillOrphans
// leaves alone; serverGroups the process groups of every server started,
// whose members KillOrphans may kill.
var (
	running      = &pidSet{m: map[int]bool{}}
	serverGroups = &pidSet{m: map[int]bool{}}
)

type pidSet struct {
	sync.Mutex
	m map[int]bool
}

func (s *pidSet) add(p int)    { s.Lock(); s.m[p] = true; s.Unlock() }
func (s *pidSet) remove(p int) { s.Lock(); delete(s.m, p); s.Unlock() }
func (s *pidSet) has(p int) bool {
	s.Lock()
	defer s.Unlock()
	return s.m[p]
}
