package mcpserver_test

import "github.com/mcpfit/mcplint/manifest"

func manifestLimit(size int64) manifest.Limits { return manifest.Limits{Size: size} }
