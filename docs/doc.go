// Package docs holds mcplint's generated reference pages. rules.md is
// written from the rules' own documentation (the Doc field of each rule in
// rules/) by `go generate ./docs`; a test fails when it is stale.
package docs

//go:generate go run ./gen
