#!/usr/bin/env bash
# The install steps of action.yml. Inputs come from the environment, never
# pasted into the script.
#
#   action-install.sh plan      decides how mcplint is installed and writes
#                               the step outputs mode, version, key, exe and
#                               setup-go (whether Go must be set up first)
#   action-install.sh install   installs it into $MCPLINT_BIN and adds that
#                               folder to $GITHUB_PATH
#
# How, from the version input (MCPLINT_VERSION) and the ref the action was
# used at (ACTION_REF, github.action_ref):
#   - a release version vX.Y.Z, or no version and a vX.Y.Z ref: download
#     the release archive for this runner and check it against the
#     release's checksums.txt (mode release; Go is not needed);
#   - another version (a commit SHA or a branch): go install
#     github.com/mcpfit/mcplint/cmd/mcplint@VERSION (mode module);
#   - no version and a ref that is not a release (a branch, a commit, or
#     a local `uses: ./`): build the action's own source (mode source).
# MCPLINT_RELEASES_URL replaces https://github.com/mcpfit/mcplint/releases/download,
# for a mirror.
set -euo pipefail

fail() {
	echo "::error title=mcplint::$*"
	exit 1
}

release_re='^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$'

plan() {
	local version=${MCPLINT_VERSION:-} ref=${ACTION_REF:-} mode
	if [ -z "$version" ] && [[ $ref =~ $release_re ]]; then
		version=$ref
	fi
	if [[ $version =~ $release_re ]]; then
		mode=release
	elif [ -n "$version" ]; then
		mode=module
	else
		mode=source
	fi
	local exe= setup_go=false
	[ "${RUNNER_OS:-}" = Windows ] && exe=.exe
	if [ "$mode" != release ] && ! command -v go >/dev/null; then
		setup_go=true
	fi
	local key
	case $mode in
	release) key="release-$version" ;;
	module) key="module-$version" ;;
	source)
		# The action is checked out without .git: name its Go source by
		# a hash of it.
		key="source-$(cd "$ACTION_PATH" && find . \( -name node_modules -o -name .git \) -prune -o \( -name '*.go' -o -name go.mod -o -name go.sum \) -type f -print0 | LC_ALL=C sort -z | xargs -0 "${sha256_cmd[@]}" | sha256_stdin | cut -c1-32)"
		;;
	esac
	output mode "$mode"
	output version "$version"
	output exe "$exe"
	output setup-go "$setup_go"
	output key "$key-${RUNNER_OS:-unknown}-${RUNNER_ARCH:-unknown}"
}

# output NAME VALUE writes a step output in the delimiter form, with a
# random delimiter: a version input holding a line break cannot end the
# value early and write outputs of its own.
output() {
	local delimiter
	delimiter="mcplint_$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
	printf '%s<<%s\n%s\n%s\n' "$1" "$delimiter" "$2" "$delimiter" >>"$GITHUB_OUTPUT"
}

# sha256_cmd hashes files with SHA-256, printing "SUM  NAME" lines:
# sha256sum (Linux, Git Bash on Windows) or shasum (macOS).
if command -v sha256sum >/dev/null; then
	sha256_cmd=(sha256sum)
else
	sha256_cmd=(shasum -a 256)
fi

# sha256 prints the SHA-256 of a file.
sha256() {
	"${sha256_cmd[@]}" "$1" | cut -d' ' -f1
}

sha256_stdin() {
	"${sha256_cmd[@]}" | cut -d' ' -f1
}

# download fetches the release archive for this runner, checks it against
# checksums.txt and unpacks the binary into $MCPLINT_BIN.
download() {
	local os arch ext=tar.gz
	case ${RUNNER_OS:-} in
	Linux) os=linux ;;
	macOS) os=darwin ;;
	Windows) os=windows ext=zip ;;
	*) fail "no mcplint release for the runner OS '${RUNNER_OS:-}'; set version to a commit to build from source" ;;
	esac
	case ${RUNNER_ARCH:-} in
	X64) arch=amd64 ;;
	ARM64) arch=arm64 ;;
	*) fail "no mcplint release for the runner architecture '${RUNNER_ARCH:-}'; set version to a commit to build from source" ;;
	esac
	local archive="mcplint_${MCPLINT_VERSION#v}_${os}_${arch}.${ext}"
	local base="${MCPLINT_RELEASES_URL:-https://github.com/mcpfit/mcplint/releases/download}/$MCPLINT_VERSION"
	local tmp
	tmp=$(mktemp -d "${RUNNER_TEMP:-/tmp}/mcplint.XXXXXX")
	echo "downloading $base/$archive"
	curl -fsSL --retry 3 -o "$tmp/$archive" "$base/$archive" || fail "cannot download $base/$archive: is $MCPLINT_VERSION a release of mcplint?"
	curl -fsSL --retry 3 -o "$tmp/checksums.txt" "$base/checksums.txt" || fail "cannot download $base/checksums.txt"
	local want got
	want=$(awk -v f="$archive" '$2 == f || $2 == "*" f { print $1 }' "$tmp/checksums.txt")
	[ -n "$want" ] || fail "checksums.txt of $MCPLINT_VERSION has no line for $archive"
	got=$(sha256 "$tmp/$archive")
	[ "$got" = "$want" ] || fail "$archive has SHA-256 $got, but checksums.txt says $want: the download is corrupt or was tampered with"
	mkdir -p "$tmp/unpacked" "$MCPLINT_BIN"
	if [ "$ext" = zip ]; then
		if command -v unzip >/dev/null; then
			unzip -q "$tmp/$archive" -d "$tmp/unpacked"
		elif command -v 7z >/dev/null; then
			7z x -y -o"$tmp/unpacked" "$tmp/$archive" >/dev/null
		else
			powershell -NoProfile -Command "Expand-Archive -LiteralPath '$tmp/$archive' -DestinationPath '$tmp/unpacked'"
		fi
	else
		tar -xzf "$tmp/$archive" -C "$tmp/unpacked"
	fi
	[ -f "$tmp/unpacked/mcplint$MCPLINT_EXE" ] || fail "$archive holds no mcplint$MCPLINT_EXE"
	mv "$tmp/unpacked/mcplint$MCPLINT_EXE" "$MCPLINT_BIN/mcplint$MCPLINT_EXE"
	chmod +x "$MCPLINT_BIN/mcplint$MCPLINT_EXE"
	rm -rf "$tmp"
}

install() {
	local bin="$MCPLINT_BIN/mcplint$MCPLINT_EXE"
	if [ -x "$bin" ] && [ "$(cat "$MCPLINT_BIN/key" 2>/dev/null)" = "$MCPLINT_KEY" ]; then
		echo "mcplint from cache"
	else
		rm -f "$bin"
		case $MCPLINT_MODE in
		release) download ;;
		module) GOBIN="$MCPLINT_BIN" go install "github.com/mcpfit/mcplint/cmd/mcplint@$MCPLINT_VERSION" ;;
		source)
			# The toolchain cannot stamp a checkout without .git: the
			# ref the action was used at is the best name of the build.
			(cd "$ACTION_PATH" && go build -trimpath -ldflags "-X main.buildCommit=${ACTION_REF:-}" -o "$bin" ./cmd/mcplint)
			;;
		*) fail "unknown install mode '$MCPLINT_MODE'" ;;
		esac
		echo "$MCPLINT_KEY" >"$MCPLINT_BIN/key"
	fi
	echo "installed mcplint $("$bin" --version | sed 's/^mcplint version //')"
	echo "$MCPLINT_BIN" >>"$GITHUB_PATH"
}

case ${1:-} in
plan) plan ;;
install) install ;;
*)
	echo "usage: action-install.sh plan|install" >&2
	exit 2
	;;
esac
