// Package citest tests the files that run mcplint in other people's CI:
// action.yml with scripts/action-install.sh and scripts/action-run.sh (the
// GitHub Action), .pre-commit-hooks.yaml, and the release archives that
// .goreleaser.yaml names. Each test drives the real thing as its host would:
// bash with the runner's environment and step outputs for the Action
// (installing from a fake release site served over HTTP, from source, on a
// Windows runner's names, under Bash 3.2's missing globstar), the
// pre-commit tool for the hooks, the Go toolchain with the release's
// ldflags for the version a release prints. It also holds docs/ci.md to
// what the project's own CI script, .ci/run, does.
package citest
