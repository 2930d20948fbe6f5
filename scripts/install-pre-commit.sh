#!/usr/bin/env bash
# Makes pre-commit (a Python program) available to `make test`, whose
# TestPreCommitHooks runs the repository's hooks through it. In order:
#   1. a pre-commit already on PATH, or in .venv/ from an earlier run;
#   2. a virtual environment in .venv/ (ignored by git) with pre-commit
#      from PyPI, when python3 and PyPI can be reached;
#   3. Debian's package, when running as root with apt-get;
#   4. otherwise a one-line failure saying how to install it.
set -euo pipefail
cd "$(dirname "$0")/.."

version=4.7.0 # for the virtual environment; Debian ships its own

if command -v pre-commit >/dev/null || [ -x .venv/bin/pre-commit ]; then
	exit 0
fi
if command -v python3 >/dev/null && python3 -m venv .venv >/dev/null 2>&1; then
	if .venv/bin/python -m pip install --disable-pip-version-check --quiet \
		--retries 0 --timeout 20 "pre-commit==$version" >/dev/null 2>&1; then
		echo "make test: installed pre-commit $version into .venv"
		exit 0
	fi
	rm -rf .venv
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
	export DEBIAN_FRONTEND=noninteractive
	if ! apt-get install -y -qq pre-commit >/dev/null 2>&1; then
		apt-get update -qq >/dev/null
		apt-get install -y -qq pre-commit >/dev/null
	fi
	echo "make test: installed Debian's pre-commit"
	exit 0
fi
echo "make test: pre-commit is missing and could not be installed (no PyPI, not root): install it (pipx install pre-commit, or your system's package), or run go test ./... to skip its test" >&2
exit 1
