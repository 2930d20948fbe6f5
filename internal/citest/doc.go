// Package citest tests the files that run mcplint in other people's CI:
// action.yml (the GitHub Action), .pre-commit-hooks.yaml, and the release
// targets of .goreleaser.yaml. Each test drives the real thing as its host
// would (bash with the runner's environment, the pre-commit tool, the Go
// cross-compiler) against this repository's source.
package citest
