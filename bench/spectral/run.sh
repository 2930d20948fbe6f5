#!/bin/sh
# Times mcplint and Spectral on the same generated manifest with five
# equivalent rules (ruleset.yaml), and prints each one's wall time, CPU time
# and peak memory. Run by hand, never in CI:
#
#	cd bench/spectral && npm ci && ./run.sh [TOOLS]
#
# TOOLS is the number of generated tools, 10000 by default. Needs go, node
# and GNU time (/usr/bin/time).
set -eu
cd "$(dirname "$0")"
tools=${1:-10000}
root=$(cd ../.. && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

go build -o "$tmp/mcplint" "$root/cmd/mcplint"
(cd "$root" && go test ./internal/benchgen -run '^TestWriteFile$' -count=1 \
	-benchgen.out "$tmp/tools.json" -benchgen.tools "$tools" >/dev/null)
size=$(wc -c <"$tmp/tools.json")
echo "input: $tools tools, $size bytes"

rules=tool-name-valid,description-present,input-schema-root-object,openai-function-name,openai-array-items

# measure NAME COMMAND...: runs the command three times and prints the
# fastest run and the largest peak resident set.
measure() {
	name=$1
	shift
	best= rss=0
	for _ in 1 2 3; do
		/usr/bin/time -f '%e %U %S %M' -o "$tmp/time" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" || true
		tail -n 1 "$tmp/time" >"$tmp/last" # after "Command exited with non-zero status"
		read -r wall user sys kb <"$tmp/last"
		cpu=$(echo "$user + $sys" | bc)
		if [ -z "$best" ] || [ "$(echo "$wall < $best" | bc)" = 1 ]; then
			best=$wall bestcpu=$cpu
		fi
		[ "$kb" -gt "$rss" ] && rss=$kb
	done
	printf '%-9s %8.2f s wall %8.2f s CPU %8d MB peak\n' "$name" "$best" "$bestcpu" $((rss / 1024))
}

measure mcplint "$tmp/mcplint" lint --no-config --select "$rules" --format json "$tmp/tools.json"
measure spectral node_modules/.bin/spectral lint --ruleset ruleset.yaml --format json --quiet "$tmp/tools.json"

# Findings of the five rules (Spectral adds its own invalid-ref, from
# resolving $ref, which it does by default).
node -e '
const fs = require("fs");
const rules = process.argv[1].split(",");
const m = JSON.parse(fs.readFileSync(process.argv[2])).diagnostics.filter(d => rules.includes(d.rule)).length;
const s = JSON.parse(fs.readFileSync(process.argv[3])).filter(d => rules.includes(d.code)).length;
console.log(`findings of the five rules: mcplint ${m}, spectral ${s}`);
' "$rules" "$tmp/mcplint.out" "$tmp/spectral.out"
