package main

import (
	"math"
	"runtime/debug"
	"sync"
)

// A lint run keeps about twice its input live (the source, for positions and
// edits, and the findings with their fixes), and with the default GOGC the
// heap grows to twice the live heap before each collection: a 16 MB manifest
// peaked at about 90 MB resident, 5.5 times its size. A soft memory limit of
// four times the largest input read (never under 64 MiB, so small inputs
// never make the collector work) keeps the peak near 75 MB for a few percent
// more CPU. A GOMEMLIMIT set by the user is left alone.
var memoryLimit struct {
	sync.Mutex
	largest int
	ours    bool
}

// limitMemory accounts for an input of size bytes.
func limitMemory(size int) {
	const factor, floor = 4, 64 << 20
	m := &memoryLimit
	m.Lock()
	defer m.Unlock()
	if size <= m.largest {
		return
	}
	if !m.ours && debug.SetMemoryLimit(-1) != math.MaxInt64 {
		return
	}
	m.largest, m.ours = size, true
	debug.SetMemoryLimit(max(int64(factor)*int64(size), floor))
}
