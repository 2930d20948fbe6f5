#!/usr/bin/env bash
# Prints the section of CHANGELOG.md for the tag $1 (v0.1.0 reads
# "## [0.1.0] - DATE" down to the next "## "), for the release's notes.
# A tag without its section fails: a release is cut by naming its
# section first (CHANGELOG.md, "Releasing").
set -euo pipefail
cd "$(dirname "$0")/.."
tag=${1:?usage: release-notes.sh TAG}
version=${tag#v}
notes=$(awk -v v="[$version]" '
	/^## / { on = (index($0, "## " v) == 1); next }
	on { print }
' CHANGELOG.md)
if [ -z "$(printf '%s' "$notes" | tr -d '[:space:]')" ]; then
	echo "CHANGELOG.md has no section \"## [$version]\" for the tag $tag" >&2
	exit 1
fi
printf '%s\n' "$notes"
