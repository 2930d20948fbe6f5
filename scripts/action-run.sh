#!/usr/bin/env bash
# The lint step of action.yml: reads the inputs from the environment, runs
# mcplint, writes the step outputs, and exits with mcplint's status.
set -uo pipefail

# output NAME VALUE writes a step output in the delimiter form, with a
# random delimiter: a value holding a line break (a file name can) cannot
# end the value early and write outputs of its own.
output() {
	local delimiter
	delimiter="mcplint_$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
	printf '%s<<%s\n%s\n%s\n' "$1" "$delimiter" "$2" "$delimiter" >>"$GITHUB_OUTPUT"
}

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
	output exit-code "$status"
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
		output exit-code 2
		exit 2
	fi
	files+=("${matches[@]}")
done

# The files follow --, so that a file named like a flag (-x.json) is a file.
stdin=/dev/null # with no files, mcplint reads the configuration's
mcplint lint --format "${FORMAT:-github}" "${args[@]}" -- "${files[@]}" <"$stdin"
status=$?

if [ -n "${SARIF_FILE:-}" ] && [ "$status" -ne 2 ]; then
	mkdir -p -- "$(dirname -- "$SARIF_FILE")"
	mcplint lint --format sarif "${args[@]}" --fail-on never -- "${files[@]}" <"$stdin" >"$SARIF_FILE"
	output sarif-file "$SARIF_FILE"
fi
output exit-code "$status"
exit "$status"
