#!/usr/bin/env bash
# Builds mcplint for every release target of .goreleaser.yaml (a test in
# internal/citest keeps the two lists equal), as goreleaser would, without
# writing the binaries: a target that does not compile fails CI before a
# release does.
set -euo pipefail
cd "$(dirname "$0")/.."
targets="linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64"
for target in $targets; do
	start=$SECONDS
	CGO_ENABLED=0 GOOS=${target%/*} GOARCH=${target#*/} go build -trimpath -o /dev/null ./cmd/mcplint
	echo "built $target in $((SECONDS - start))s"
done
