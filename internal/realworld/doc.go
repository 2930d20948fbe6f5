// Package realworld holds the tests that guard the real-world corpus in
// testdata/realworld: tool lists taken from public issue threads, snapshots
// of popular servers and the output of real schema generators at pinned
// versions, each with the verdict every consumer is expected to give. The
// tests check that every case is well formed and that the generator cases
// still hold exactly what their generators emit.
package realworld
