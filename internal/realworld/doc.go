// Package realworld holds the tests that guard the real-world corpus in
// testdata/realworld and hold mcplint to it. The corpus is tool lists taken
// from public issue threads (thread-*), snapshots of popular servers'
// published lists (server-*) and the output of real schema generators at
// pinned versions (gen-*), each with the verdict every consumer of the
// matrix (package consumer) gives, and the source of every verdict that is
// not "accept".
//
// The tests check that every case is well formed, that the generator cases
// still hold exactly what their generators emit, and the verdicts: the
// default run names every default-mode consumer that refuses a case, each
// opt-in consumer's rules report every case it refuses, and the popular
// servers every default-mode consumer accepts get no error and at most one
// warning per twenty tools. Corpus reads the corpus for them and for the
// tests of other packages that run over it.
package realworld
