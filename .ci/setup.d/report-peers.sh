#!/usr/bin/env bash
# The peers report's tests check the output formats against: the official
# SARIF 2.1.0 JSON schema (shipped by @microsoft/jest-sarif) and a JUnit XML
# reader (test-results-parser), pinned in report/testdata/npm.
set -euo pipefail
cd "$(dirname "$0")/../../report/testdata/npm"
if ! command -v node >/dev/null; then
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm
fi
npm ci --ignore-scripts --no-audit --no-fund
