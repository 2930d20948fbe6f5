package main

import (
	"runtime/debug"
)

// buildVersion and buildCommit are set by the builds that know better than
// the toolchain: the release build (.goreleaser.yaml: the tag and commit)
// and the GitHub Action's build from its own source, which has no .git to
// stamp (the ref it was used at), with
// -ldflags "-X main.buildVersion=... -X main.buildCommit=...".
var buildVersion, buildCommit string

// version describes the build: the module version ("(devel)" for a build
// from a work tree) and, when the toolchain recorded it, the VCS revision.
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		bi = &debug.BuildInfo{}
	}
	return describeBuild(stamp(bi, buildVersion, buildCommit))
}

// stamp puts the version and commit given at link time into a copy of bi,
// over what the toolchain recorded.
func stamp(bi *debug.BuildInfo, version, commit string) *debug.BuildInfo {
	out := *bi
	if version != "" {
		out.Main.Version = version
	}
	if commit != "" {
		out.Settings = append([]debug.BuildSetting{{Key: "vcs.revision", Value: commit}}, deleteSetting(bi.Settings, "vcs.revision")...)
	}
	return &out
}

func deleteSetting(s []debug.BuildSetting, key string) []debug.BuildSetting {
	var out []debug.BuildSetting
	for _, x := range s {
		if x.Key != key {
			out = append(out, x)
		}
	}
	return out
}

func describeBuild(bi *debug.BuildInfo) string {
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if rev == "" {
		return v
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if modified == "true" {
		rev += ", modified"
	}
	return v + " (" + rev + ")"
}
