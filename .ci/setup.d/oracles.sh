#!/usr/bin/env bash
# The peers that judge mcplint's rewrites and conversions (the MCP
# TypeScript SDK's ListToolsResultSchema, Ajv strict, Zod 3 and 4, tsc),
# pinned in testdata/oracles.
set -euo pipefail
cd "$(dirname "$0")/../../testdata/oracles"
if ! command -v node >/dev/null; then
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm
fi
npm ci --ignore-scripts --no-audit --no-fund
