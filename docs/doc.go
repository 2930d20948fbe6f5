// Package docs holds mcplint's reference pages, one per subject, which the
// README links to. rules.md and consumers.md are generated from the rules'
// documentation and the consumer matrix by `go generate ./docs`; its tests
// fail when they are stale or when a relative link of a page (or of the
// README) names a file or heading that does not exist. The console examples
// of the pages run in cmd/mcplint's TestDocExamples.
package docs

//go:generate go run ./gen
