package live

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/mcpfit/mcplint/internal/english"
	"github.com/mcpfit/mcplint/lint"
)

// CheckOptions tune CheckAll.
type CheckOptions struct {
	// Options are each listing's; Name is ignored (a server's manifest is
	// named after it).
	Options Options
	// Concurrency is how many servers are checked at once (default 4).
	Concurrency int
	// Timeout bounds each server's whole check: the conversation and the
	// linting of what it listed (default 30 s).
	Timeout time.Duration
	// Linter returns the linter for a server's listing of one era
	// (Listing.Eras), called for each; it may rename the listing's
	// manifest. It runs concurrently for several servers.
	Linter func(ConfiguredServer, *Listing) (*lint.Linter, error)
	// Done, when set, is called as each server's check ends (a progress
	// counter), from several goroutines at once.
	Done func()
}

// Result is one server's check.
type Result struct {
	Server      ConfiguredServer
	Listing     *Listing
	Diagnostics []lint.Diagnostic
	// Err is why the server could not be checked: the entry's own error
	// (ConfiguredServer.Err), an *Error of the conversation, or the
	// linter's error.
	Err error
}

// CheckAll lists and lints every server, several at a time; one that fails
// does not stop the others. Results are in the order of servers. Each
// server's time is bounded as a whole, so a listing that is slow to lint
// fails with a timeout (KindTimeout) like a server that is slow to answer.
// Every process started is stopped before CheckAll returns.
func CheckAll(ctx context.Context, servers []ConfiguredServer, o CheckOptions) []Result {
	if o.Concurrency < 1 {
		o.Concurrency = 4
	}
	if o.Timeout <= 0 {
		o.Timeout = 30 * time.Second
	}
	done := o.Done
	if done == nil {
		done = func() {}
	}
	results := make([]Result, len(servers))
	var wg sync.WaitGroup
	sem := make(chan struct{}, o.Concurrency)
	for i, s := range servers {
		results[i].Server = s
		if s.Err != nil {
			results[i].Err = s.Err
			done()
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			defer done()
			results[i].Listing, results[i].Diagnostics, results[i].Err = checkOne(ctx, s, o)
		}()
	}
	wg.Wait()
	return results
}

func checkOne(ctx context.Context, s ConfiguredServer, o CheckOptions) (*Listing, []lint.Diagnostic, error) {
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	opts := o.Options
	opts.Name = s.Name
	l, err := List(ctx, s.Target, opts)
	if err != nil {
		return nil, nil, err
	}
	diags, err := checkContext(ctx, func(era *Listing) (*lint.Linter, error) { return o.Linter(s, era) }, l)
	return l, diags, err
}

// CheckContext is Check that ends when ctx is done, with a KindTimeout
// *Error when its deadline passed (KindCanceled when it was cancelled).
// Linting stops between two tools; a single tool whose rules outlast the
// deadline is left to finish in the background, its result dropped, so
// that the caller's time is bounded all the same.
func CheckContext(ctx context.Context, linter *lint.Linter, l *Listing) ([]lint.Diagnostic, error) {
	return checkContext(ctx, func(*Listing) (*lint.Linter, error) { return linter, nil }, l)
}

func checkContext(ctx context.Context, linterFor func(*Listing) (*lint.Linter, error), l *Listing) ([]lint.Diagnostic, error) {
	type outcome struct {
		diags []lint.Diagnostic
		err   error
	}
	done := make(chan outcome, 1)
	go func() {
		diags, err := checkEras(ctx, linterFor, l)
		done <- outcome{diags, err}
	}()
	var diags []lint.Diagnostic
	var err error
	select {
	case o := <-done:
		diags, err = o.diags, o.err
	case <-ctx.Done():
		err = ctx.Err()
	}
	switch {
	case err == nil:
		return diags, nil
	case errors.Is(err, context.DeadlineExceeded):
		e := failf(KindTimeout, err, "the server answered, but linting its %d tool%s did not end before the timeout", len(l.Manifest.Tools), english.Plural(len(l.Manifest.Tools), "", "s"))
		e.Limit = LimitTimeout
		return nil, e
	case errors.Is(err, context.Canceled):
		return nil, failf(KindCanceled, err, "interrupted")
	}
	return nil, err
}
