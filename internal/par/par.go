// Package par runs independent steps of a run side by side. It owns only
// the loop: callers write each step's result at its index, so what they
// build keeps the order of its input whatever the schedule.
package par

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// ForEach calls fn for each index below n, on as many goroutines as there
// are CPUs (one, in order, when n or the CPUs are one).
func ForEach(n int, fn func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := range n {
			fn(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				fn(i)
			}
		})
	}
	wg.Wait()
}

// FirstError is the error of the lowest index, the one a loop over the
// indexes in order would have stopped at.
func FirstError(errs []error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
