#!/usr/bin/env bash
# Installs the MCP reference servers that `mcplint check`'s interop tests
# talk to (cmd/mcplint/check_interop_test.go), at the versions pinned in
# live/testdata/reference-servers/package-lock.json. Idempotent: npm ci
# reinstalls exactly the locked tree.
set -euo pipefail
cd "$(dirname "$0")/../../live/testdata/reference-servers"
npm ci --no-audit --no-fund --loglevel=error
