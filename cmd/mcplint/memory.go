package main

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// The heap of a run holds the sources it read, which stay live to the end
// (positions, code frames and edits read them) and hold no pointers, and
// the working set proper: decoded tools, findings, fixes. The collector's
// default lets the heap grow by as much as is live before collecting, so
// a 16 MB manifest would grow the heap by 16 MB more than its findings ever
// need; a fixed limit proportional to the input (four times, once) was
// below the working set of a run with many findings, and the collector
// then ran without pause. The heap may instead grow by the working set
// without the sources: after each collection the growth allowed (GOGC) is
// set to the share of the live heap that is not source, at least a
// quarter, so the peak follows what the run really keeps. GOGC or
// GOMEMLIMIT set by the user are left alone.
var memoryTuner tuner

type tuner struct {
	sync.Mutex
	sources int64 // bytes of the sources read and not yet collected
	on      bool  // tuneGC runs after each collection
	quiet   bool  // GOGC is quietStart's
}

// quietStart keeps the collector from running while a run is small: the
// packages' initialisation and the metaschema compile alone take the heap
// past the runtime's first goal (4 MB), and a collection then cost a run
// of fifty tools a sixth of its time, for a heap that is all live. The
// heap may grow eight times what is live until the run has read a
// megabyte of sources (limitMemory) or the first collection, whichever
// comes first: the tuner takes over from there.
func quietStart() {
	t := &memoryTuner
	t.Lock()
	defer t.Unlock()
	if userTuned() {
		return
	}
	// The largest inputs the default limits accept peak at about 1 GB
	// (docs/promises.md), some of them a little over with the growth the
	// collector allows: past softLimit it collects sooner instead, at a
	// cost in time only for those inputs.
	debug.SetMemoryLimit(softLimit)
	debug.SetGCPercent(800)
	t.quiet = true
	if !t.on {
		t.on = true
		armTuner()
	}
}

// softLimit is the memory limit mcplint sets when the user sets none.
const softLimit = 1 << 30

// userTuned reports whether the user set the collector (GOGC or
// GOMEMLIMIT), which then is left alone. It is asked before quietStart
// sets a limit of its own, and remembers the answer.
var userTuned = sync.OnceValue(func() bool {
	if _, set := os.LookupEnv("GOGC"); set {
		return true
	}
	return debug.SetMemoryLimit(-1) != math.MaxInt64
})

// limitMemory accounts for a source read, until it is collected (a
// process that reads many, such as a benchmark, does not keep them all).
func limitMemory(src []byte) {
	t := &memoryTuner
	t.Lock()
	defer t.Unlock()
	if len(src) == 0 || userTuned() {
		return
	}
	t.sources += int64(len(src))
	runtime.AddCleanup(&src[0], func(n int64) {
		t.Lock()
		t.sources -= n
		t.Unlock()
	}, int64(len(src)))
	if t.sources < 1<<20 {
		return
	}
	if t.quiet {
		t.quiet = false
		debug.SetGCPercent(100)
	}
	if !t.on {
		t.on = true
		armTuner()
	}
}

// armTuner tunes GOGC after the next collection, and again after each.
func armTuner() {
	// An object of its own (the allocator packs tiny ones together, and
	// their finalizers may never run), garbage at once: its finalizer runs
	// after the next collection.
	s := &sentinel{}
	runtime.SetFinalizer(s, func(*sentinel) {
		tuneGC()
		armTuner()
	})
}

type sentinel struct{ _ *byte }

var liveSample = []metrics.Sample{{Name: "/gc/heap/live:bytes"}}

func tuneGC() {
	t := &memoryTuner
	t.Lock()
	sources := t.sources
	t.quiet = false
	t.Unlock()
	metrics.Read(liveSample)
	if liveSample[0].Value.Kind() != metrics.KindUint64 {
		return
	}
	live := int64(liveSample[0].Value.Uint64())
	if live <= 0 {
		return
	}
	working := max(live-sources, 0)
	pct := int(min(max(100*working/live, 25), 100))
	debug.SetGCPercent(pct)
}
