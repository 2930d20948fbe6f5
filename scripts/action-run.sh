#!/usr/bin/env bash
# The lint step of action.yml: reads the inputs from the environment, runs
# mcplint once (the log format, and SARIF to sarif-file when asked), writes
# the step outputs, and exits with mcplint's status.
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
[ -n "${FAIL_ON:-}" ] && args+=(--fail-on "$FAIL_ON")
args+=(--format "${FORMAT:-github}")
[ -n "${SARIF_FILE:-}" ] && args+=(--format "sarif=$SARIF_FILE")
# The client matrix (which clients take each tool) from the same run, for
# the job summary, after the findings the github format puts there.
matrix=
if [ -n "${GITHUB_STEP_SUMMARY:-}" ] && [ -n "${RUNNER_TEMP:-}" ]; then
	matrix="$RUNNER_TEMP/mcplint-matrix-$$.md"
	args+=(--format "matrix=$matrix")
fi

# outputs writes the step outputs and the matrix, and exits with status $1.
outputs() {
	if [ -n "$matrix" ] && [ -s "$matrix" ]; then
		{ echo; cat "$matrix"; } >>"$GITHUB_STEP_SUMMARY"
		rm -f "$matrix"
	fi
	if [ -n "${SARIF_FILE:-}" ] && [ -f "$SARIF_FILE" ] && [ "$1" -ne 2 ]; then
		output sarif-file "$SARIF_FILE"
	fi
	output exit-code "$1"
	exit "$1"
}

if [ -n "${SERVER_COMMAND:-}" ] && [ -n "${SERVER_URL:-}" ]; then
	echo "::error title=mcplint::give server-command or server-url, not both"
	outputs 2
fi

if [ -n "${SERVER_COMMAND:-}" ]; then
	mcplint check "${args[@]}" -- sh -c "$SERVER_COMMAND"
	outputs $?
fi
if [ -n "${SERVER_URL:-}" ]; then
	mcplint check "${args[@]}" --url "$SERVER_URL"
	outputs $?
fi

# glob_regex turns a glob into an extended regular expression over paths:
# "**/" is any number of folders, "*" and "?" stay within one, [...] is
# kept ([!...] becomes [^...]).
glob_regex() {
	local p=$1 out='' c i=0 j n=${#1}
	while [ "$i" -lt "$n" ]; do
		c=${p:i:1}
		case $c in
		'*')
			if [ "${p:i:3}" = '**/' ]; then
				out+='(.*/)?'
				i=$((i + 3))
				continue
			elif [ "${p:i:2}" = '**' ]; then
				out+='.*'
				i=$((i + 2))
				continue
			fi
			out+='[^/]*'
			;;
		'?') out+='[^/]' ;;
		'[')
			j=$((i + 1))
			[ "${p:j:1}" = '!' ] && j=$((j + 1))
			[ "${p:j:1}" = ']' ] && j=$((j + 1))
			while [ "$j" -lt "$n" ] && [ "${p:j:1}" != ']' ]; do j=$((j + 1)); done
			if [ "$j" -ge "$n" ]; then
				out+='\['
			else
				c=${p:i:j-i+1}
				[ "${c:1:1}" = '!' ] && c="[^${c:2}"
				out+=$c
				i=$j
			fi
			;;
		'.' | '+' | '(' | ')' | '|' | '^' | '$' | '{' | '}' | '\') out+="\\$c" ;;
		*) out+=$c ;;
		esac
		i=$((i + 1))
	done
	printf '^%s$' "$out"
}

# Bash 3.2 (macOS runners) has no globstar: there, patterns with "**" are
# matched against a listing of the working directory instead (hidden
# folders skipped, as globstar skips them). The listing is NUL-separated:
# a name may hold a line feed, and a folder named "x<LF>" must not make
# "x<LF>/etc/tools.json" two paths, the second one out of the tree.
globstar=true
shopt -s globstar 2>/dev/null || globstar=false
shopt -s nullglob
listed=false
listing=()
files=()
set -f
patterns=($FILES) # split on spaces and newlines, not yet expanded
set +f
# ${a[@]+"${a[@]}"}: an empty array is "unbound" to set -u before Bash 4.4.
for p in ${patterns[@]+"${patterns[@]}"}; do
	matches=()
	if [ "$globstar" = false ] && [[ $p == *'**'* ]]; then
		if [ "$listed" = false ]; then
			while IFS= read -r -d '' f; do
				listing+=("${f#./}")
			done < <(find . -mindepth 1 \( -type d -name '.*' -prune \) -o -type f -print0 | LC_ALL=C sort -z)
			listed=true
		fi
		re=$(glob_regex "${p#./}")
		for f in ${listing[@]+"${listing[@]}"}; do
			[[ $f =~ $re ]] && matches+=("$f")
		done
	else
		matches=($p)
	fi
	if [ ${#matches[@]} -eq 0 ]; then
		# The pattern is data in a workflow command: escaped as the Actions
		# toolkit's escapeData escapes it, so that "%0A" in it stays text.
		shown=${p//'%'/%25}
		shown=${shown//$'\r'/%0D}
		echo "::error title=mcplint::files: no file matches $shown"
		outputs 2
	fi
	files+=("${matches[@]}")
done

# The files follow --, so that a file named like a flag (-x.json) is a file.
stdin=/dev/null # with no files, mcplint reads the configuration's
mcplint lint "${args[@]}" -- ${files[@]+"${files[@]}"} <"$stdin"
outputs $?
