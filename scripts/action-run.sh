#!/usr/bin/env bash
# The lint step of action.yml: reads the inputs from the environment, runs
# mcplint, writes the step outputs, and exits with mcplint's status.
set -uo pipefail

args=()
[ -n "${CONFIG:-}" ] && args+=(--config "$CONFIG")
[ -n "${SELECT:-}" ] && args+=(--select "$SELECT")
args+=(--fail-on "${FAIL_ON:-error}")

if [ -n "${SERVER_COMMAND:-}" ] && [ -n "${SERVER_URL:-}" ]; then
	echo "::error title=mcplint::give server-command or server-url, not both"
	exit 2
fi

if [ -n "${SERVER_COMMAND:-}" ] || [ -n "${SERVER_URL:-}" ]; then
	if ! mcplint check --help >/dev/null 2>&1; then
		echo "::error title=mcplint::this mcplint has no check command, so server-command and server-url cannot be used; use a version that has it"
		exit 2
	fi
	# check writes text or JSON: a live server has no file to annotate.
	if [ -n "${SERVER_COMMAND:-}" ]; then
		mcplint check "${args[@]}" -- sh -c "$SERVER_COMMAND"
	else
		mcplint check "${args[@]}" --url "$SERVER_URL"
	fi
	status=$?
	echo "exit-code=$status" >> "$GITHUB_OUTPUT"
	exit "$status"
fi

shopt -s globstar nullglob
files=()
set -f
patterns=($FILES) # split on spaces and newlines, not yet expanded
set +f
for p in "${patterns[@]}"; do
	matches=($p)
	if [ ${#matches[@]} -eq 0 ]; then
		echo "::error title=mcplint::files: no file matches $p"
		echo "exit-code=2" >> "$GITHUB_OUTPUT"
		exit 2
	fi
	files+=("${matches[@]}")
done

stdin=/dev/null # with no files, mcplint reads the configuration's
mcplint lint --format "${FORMAT:-github}" "${args[@]}" "${files[@]}" < "$stdin"
status=$?

if [ -n "${SARIF_FILE:-}" ] && [ "$status" -ne 2 ]; then
	mkdir -p "$(dirname "$SARIF_FILE")"
	mcplint lint --format sarif "${args[@]}" --fail-on never "${files[@]}" < "$stdin" > "$SARIF_FILE"
	echo "sarif-file=$SARIF_FILE" >> "$GITHUB_OUTPUT"
fi
echo "exit-code=$status" >> "$GITHUB_OUTPUT"
exit "$status"
