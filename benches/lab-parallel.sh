#!/usr/bin/env bash
# A playtest lab run fanned out with GNU parallel, then merged: the recipe of docs/lab.md.
#
#   benches/lab-parallel.sh PARTS OUTDIR LAB-ARGUMENTS…
#   benches/lab-parallel.sh 8 parts scenarios/lab/skirmish-tougher-hulls.ron -n 20000 --seed 7
#
# Each of the PARTS shards runs as its own process with one worker thread, as many at once
# as this machine has cores (PARALLEL_JOBS to change that; PARALLEL_SSHLOGIN, e.g.
# "4/alice@box1,4/bob@box2", to run them over SSH on machines that have `tanktable` on
# PATH and the project's folder at the same place: see docs/lab.md). The merged report is
# printed (--json and --csv FILE are the merge's); OUTDIR keeps the shard files. TANKTABLE
# names the program (default: this checkout's release build, else tanktable on PATH).
set -euo pipefail
if [ $# -lt 3 ]; then
    sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
parts=$1 out=$2
shift 2
command -v parallel >/dev/null || { echo "GNU parallel is not installed (apt-get install parallel)" >&2; exit 1; }
program=${TANKTABLE:-${CARGO_TARGET_DIR:-target}/release/tanktable}
if [ ! -x "$program" ]; then
    program=$(command -v tanktable) || { echo "no tanktable program: run cargo build --release, or set TANKTABLE" >&2; exit 1; }
fi
# The shards' arguments and the merge's: the report's outputs belong to the merge.
shard=() merge=()
while [ $# -gt 0 ]; do
    case $1 in
        --json) merge+=(--json) ;;
        --csv) merge+=(--csv "$2"); shift ;;
        --games-csv) echo "--games-csv: give it to each shard (the merge has their sums, not their games)" >&2; exit 2 ;;
        *) shard+=("$1") ;;
    esac
    shift
done
mkdir -p "$out"
rm -f "$out"/part*.json    # a run with other parts must not be merged with this one
ssh=()
if [ -n "${PARALLEL_SSHLOGIN:-}" ]; then
    ssh=(--sshlogin "$PARALLEL_SSHLOGIN" --workdir . --return "$out/part{}.json" --cleanup)
fi
parallel --quote --halt now,fail=1 --jobs "${PARALLEL_JOBS:-100%}" ${ssh[@]+"${ssh[@]}"} \
    "$program" lab "${shard[@]}" --threads 1 --shard "{}/$parts" --out "$out/part{}.json" \
    ::: $(seq "$parts")
"$program" lab merge ${merge[@]+"${merge[@]}"} "$out"/part*.json
