# `make test` is the project's test command: it installs what the tests
# are judged by, then runs the whole suite with every oracle required
# (MCPLINT_REQUIRE_ORACLES=1), so a missing oracle fails instead of
# skipping. Plain `go test ./...` needs Go alone: the oracle tests skip.
#
# Needs Go and Node.js (node and npm on PATH). The npm packages go into
# the ignored node_modules folders below, reinstalled when a lock file
# changes; pre-commit as scripts/install-pre-commit.sh says. The official
# MCP schemas are read from ../shared/mcp-spec, or $MCPLINT_MCP_SPEC.

# Folders whose package-lock.json pins npm packages the tests run (keep
# equal to internal/testenv.NPMFolders; a test checks).
NPM_FOLDERS := testdata/oracles report/testdata/npm live/testdata/reference-servers testdata/conformance testdata/tokenizer

# Extra flags for go test, such as GOTESTFLAGS=-count=1 in CI.
GOTESTFLAGS ?=

# make npm: the npm packages (launcher and this machine's platform
# package) from the release build, as tarballs in NPM_OUT (docs/install.md).
NPM_OUT ?= dist/npm
NPM_VERSION ?= 0.0.0-dev

.PHONY: test oracles pre-commit npm
test: oracles
	MCPLINT_REQUIRE_ORACLES=1 PATH="$(CURDIR)/.venv/bin:$$PATH" go test $(GOTESTFLAGS) ./...

oracles: $(addsuffix /node_modules/.package-lock.json,$(NPM_FOLDERS)) pre-commit

# npm ci writes node_modules/.package-lock.json last, so its date says the
# folder matches the lock.
%/node_modules/.package-lock.json: %/package-lock.json
	@command -v npm >/dev/null || { echo "make test: npm is missing: install Node.js 20 or newer (node and npm), then run make test again" >&2; exit 1; }
	cd $* && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error

pre-commit:
	@bash scripts/install-pre-commit.sh

npm:
	go run ./internal/npmpack -out "$(NPM_OUT)" -version "$(NPM_VERSION)"
