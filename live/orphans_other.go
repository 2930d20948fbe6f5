//go:build !linux

package live

// AdoptOrphans does nothing here: only Linux lets a process adopt the
// orphans of its descendants (PR_SET_CHILD_SUBREAPER).
func AdoptOrphans() error { return nil }

// KillOrphans does nothing here (see AdoptOrphans).
func KillOrphans() {}
