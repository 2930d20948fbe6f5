// Package home is the one place that names mcplint's home: the GitHub owner
// and repository that the Go module path, the GitHub Action (uses:), the
// pre-commit repository, the release, the npm packages, the container
// image and the Homebrew tap all point at. The command is mcplint on every
// channel.
//
// The configuration files of the channels (go.mod, .goreleaser.yaml, the
// npm package templates under npm/, the Dockerfile) and the docs cannot
// import Go constants, so the test of this package reads every tracked file
// of the repository: each name of a home it finds (a GitHub or module path,
// an Action reference, an npm scope, an image, a tap) must be the one
// here, the channels' files must name it where they are meant to, and the
// path of the project that used the name mcplint before on GitHub, npm and
// Homebrew never appears. docs/install.md records how the name was checked
// to be free.
package home

const (
	// Owner is the GitHub user or organisation, and the npm scope's name.
	Owner = "mcpfit"
	// Repo is the GitHub repository.
	Repo = "mcplint"
	// Command is the program's name on every channel.
	Command = "mcplint"

	// Module is the Go module path (go install Module/cmd/mcplint@latest).
	Module = "github.com/" + Owner + "/" + Repo
	// URL is the repository's web address; releases are under URL/releases.
	URL = "https://" + Module
	// Action is what a workflow's uses: names, before @VERSION.
	Action = Owner + "/" + Repo

	// NPMScope is the npm scope every package is published under.
	NPMScope = "@" + Owner
	// NPMPackage is the package users run (npx @mcpfit/mcplint): a
	// launcher whose optionalDependencies are the per-platform packages
	// (NPMPlatformPackage).
	NPMPackage = NPMScope + "/" + Repo

	// Image is the container image (OCI), tagged with the version and
	// latest.
	Image = "ghcr.io/" + Owner + "/" + Repo
	// TapRepo is the Homebrew tap's GitHub repository; users name it
	// Tap (brew install mcpfit/tap/mcplint).
	TapRepo = Owner + "/homebrew-tap"
	Tap     = Owner + "/tap"
)

// NPMPlatformPackage is the npm package holding the native binary for one
// platform, in Node.js's names (process.platform and process.arch):
// @mcpfit/mcplint-linux-x64, @mcpfit/mcplint-win32-arm64, …
func NPMPlatformPackage(platform, arch string) string {
	return NPMPackage + "-" + platform + "-" + arch
}
