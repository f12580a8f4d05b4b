#!/usr/bin/env bash
# load-check: a verdict depends on the inputs and the seed only, never on the machine's load.
# Runs the whole pipeline on CORPUS with the reference generator twice, into fresh folders under OUT:
# once as the machine is, once with GOMAXPROCS=1 beside HOGS busy loops. Then it compares every
# dataset's digest (volatile columns left out) and prints the reference samples' verdicts per oracle
# and O1's stop reasons. Exit 1 when a digest differs or a reference sample is divergent.
set -euo pipefail
bin=${BIN:-bin/solbehave}
corpus=${CORPUS:-data/corpus/demo}
out=${OUT:-data/load-check}
hogs=${HOGS:-3}
rm -rf "$out"
mkdir -p "$out"

run() { # run NAME [env assignments...]: one pipeline run into $out/NAME, its wall seconds in $out/NAME.seconds
	local name=$1 start rc=0
	shift
	start=$(date +%s%N)
	env "$@" "$bin" run --corpus "$corpus" --data "$out/$name" --generator reference ${ARGS:-} >"$out/$name.log" 2>&1 || rc=$?
	[ "$rc" -le 2 ] || { echo "load-check: run $name failed (exit $rc), see $out/$name.log"; exit 1; }
	awk -v s="$start" -v e="$(date +%s%N)" 'BEGIN { printf "%.1f\n", (e - s) / 1e9 }' >"$out/$name.seconds"
	"$bin" digest --data "$out/$name" >"$out/$name.digest"
}

run idle
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true' EXIT
for _ in $(seq "$hogs"); do
	(while :; do :; done) &
	pids+=($!)
done
run hog GOMAXPROCS=1
kill "${pids[@]}"
trap - EXIT

echo "wall seconds: idle $(cat "$out/idle.seconds"), hog $(cat "$out/hog.seconds") (GOMAXPROCS=1, $hogs busy loops)"
"$bin" sql --data "$out/hog" "SELECT oracle, count(*) AS samples, count(*) FILTER (WHERE divergent) AS divergent FROM sample_verdicts WHERE model = 'reference' GROUP BY oracle ORDER BY oracle"
"$bin" sql --data "$out/hog" "SELECT stop_reason, count(*) AS function_pairs, count(*) FILTER (WHERE NOT equivalent) AS non_equivalent FROM fuzz_results WHERE model = 'reference' GROUP BY stop_reason ORDER BY stop_reason"
status=0
if diff "$out/idle.digest" "$out/hog.digest"; then
	echo "digests: all $(wc -l <"$out/idle.digest") datasets identical"
else
	echo "load-check: the loaded run's rows differ from the idle run's"
	status=1
fi
divergent=$("$bin" sql --data "$out/hog" --format csv "SELECT count(*) FILTER (WHERE divergent) FROM sample_verdicts WHERE model = 'reference'" | tail -1)
if [ "$divergent" != 0 ]; then
	echo "load-check: $divergent reference verdicts divergent"
	status=1
fi
exit $status
