package convert

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// forEach calls fn for each index below n, on as many goroutines as there
// are CPUs. Decoding tools and transforming their schemas are independent
// per tool and took most of a conversion of thousands of tools on one core;
// callers write results by index, so the output keeps the tools' order.
func forEach(n int, fn func(i int)) {
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

// firstError is the error of the lowest index, as a loop over the indexes
// in order would have returned.
func firstError(errs []error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
