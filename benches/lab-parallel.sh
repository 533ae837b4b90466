#!/usr/bin/env bash
# A playtest lab run fanned out with GNU parallel, then merged: the recipe of docs/lab.md.
#
#   benches/lab-parallel.sh PARTS OUTDIR LAB-ARGUMENTS…
#   benches/lab-parallel.sh 8 parts scenarios/lab/skirmish-tougher-hulls.ron -n 20000 --seed 7
#
# Each of the PARTS shards runs as its own process with one worker thread, as many at once
# as this machine has cores (PARALLEL_JOBS to change that; PARALLEL_SSHLOGIN, e.g.
# "4/alice@box1,4/bob@box2", to run them over SSH on machines that have `tanktable` on
# PATH and the project's folder at the same place: see docs/lab.md). The report is printed
# and OUTDIR keeps the shard files. TANKTABLE names the program (default: tanktable on
# PATH, else this checkout's release build).
set -euo pipefail
if [ $# -lt 3 ]; then
    sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
parts=$1 out=$2
shift 2
command -v parallel >/dev/null || { echo "GNU parallel is not installed (apt-get install parallel)" >&2; exit 1; }
program=${TANKTABLE:-$(command -v tanktable || echo "${CARGO_TARGET_DIR:-target}/release/tanktable")}
mkdir -p "$out"
ssh=()
if [ -n "${PARALLEL_SSHLOGIN:-}" ]; then
    ssh=(--sshlogin "$PARALLEL_SSHLOGIN" --workdir . --return "$out/part{}.json" --cleanup)
fi
parallel --quote --halt now,fail=1 --jobs "${PARALLEL_JOBS:-100%}" "${ssh[@]}" \
    "$program" lab "$@" --threads 1 --shard "{}/$parts" --out "$out/part{}.json" \
    ::: $(seq "$parts")
# The report as the single run would print it: JSON when the question asked for JSON.
merge=()
for arg in "$@"; do
    if [ "$arg" = --json ]; then merge=(--json); fi
done
"$program" lab merge "${merge[@]}" "$out"/part*.json
