package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// stoppable is ctx cancelled by SIGINT or SIGTERM, which then no longer
// end the process: every command that runs servers or writes files stops
// on them the same way, killing its servers and finishing or undoing its
// writes before it exits. stop gives the signals back.
func stoppable(ctx context.Context) (_ context.Context, stop context.CancelFunc) {
	return signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
}
