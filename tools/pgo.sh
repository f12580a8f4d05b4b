#!/usr/bin/env bash
# pgo: refresh cmd/solbehave/default.pgo, the CPU profile Go's compiler optimises the solbehave
# binary for (profile-guided optimisation: `go build` reads default.pgo in the main package's folder).
# It profiles one whole pipeline run on CORPUS with the projection's protocol (issue 38: the mainnet
# corpus, the mutant generators, k = 10, one job), so the hot paths it optimises are the ones the
# projection prices: O1's traced EVM, the replays, the fuzzers. A fresh profile after a change to
# those paths keeps the optimisation aimed at them; a stale one only optimises less.
set -euo pipefail
bin=${BIN:-bin/solbehave}
corpus=${CORPUS:-../shared/corpus/mainnet}
out=${OUT:-data/pgo}
dest="$(dirname "$0")/../cmd/solbehave/default.pgo" # the main package's folder, wherever this runs from
[ -d "$corpus" ] || { echo "pgo: no corpus at $corpus (set CORPUS)"; exit 1; }
rm -rf "$out"
mkdir -p "$out"
rc=0
SOLBEHAVE_CPUPROFILE="$out/run.pprof" "$bin" run --corpus "$corpus" --data "$out/data" \
	--generator mutant,mutant:compile-error --samples 10 --dcr-annotations "" --jobs 1 >"$out/run.log" 2>&1 || rc=$?
[ "$rc" -le 2 ] || { echo "pgo: the run failed (exit $rc), see $out/run.log"; exit 1; }
cp "$out/run.pprof" "$dest"
echo "pgo: wrote $dest ($(wc -c <"$dest") bytes) from $corpus; rebuild with make build"
