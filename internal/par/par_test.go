package par

import (
	"errors"
	"sync/atomic"
	"testing"
)

func TestForEachVisitsEachIndexOnce(t *testing.T) {
	for _, n := range []int{0, 1, 2, 1000} {
		seen := make([]atomic.Int32, n)
		ForEach(n, func(i int) { seen[i].Add(1) })
		for i := range seen {
			if c := seen[i].Load(); c != 1 {
				t.Fatalf("n=%d: index %d visited %d times", n, i, c)
			}
		}
	}
}

func TestFirstError(t *testing.T) {
	a, b := errors.New("a"), errors.New("b")
	if err := FirstError([]error{nil, a, b}); err != a {
		t.Errorf("FirstError = %v, want a", err)
	}
	if err := FirstError([]error{nil, nil}); err != nil {
		t.Errorf("FirstError = %v, want nil", err)
	}
}
