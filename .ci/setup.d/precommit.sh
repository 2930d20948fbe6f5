#!/usr/bin/env bash
# The pre-commit hooks' test runs the real pre-commit (Debian's package).
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
if command -v pre-commit >/dev/null; then
	exit 0
fi
if ! apt-get install -y -qq pre-commit >/dev/null 2>&1; then
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pre-commit
fi
