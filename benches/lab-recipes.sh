#!/usr/bin/env bash
# Checks docs/lab.md's recipes for running the lab beyond one process, on this machine:
# GNU parallel (benches/lab-parallel.sh), the Slurm job array (docs/jobs/lab-slurm.sh)
# and the Kubernetes Indexed Job (docs/jobs/lab-kubernetes.yaml), the last two by running
# their command lines with the index variable set by hand. Each merge must equal the
# single run's report byte for byte. CI runs it; by hand:
#
#   TANKTABLE=target/release/tanktable benches/lab-recipes.sh
set -euo pipefail
cd "$(dirname "$0")/.."
program=$(realpath "${TANKTABLE:?name the tanktable program to check, e.g. TANKTABLE=target/release/tanktable}")
question=scenarios/lab/skirmish-tougher-hulls.ron
games=${GAMES:-600} seed=${SEED:-11} parts=${PARTS:-4}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin="$work/bin"
mkdir -p "$bin"
ln -s "$program" "$bin/tanktable"

"$program" lab "$question" -n "$games" --seed "$seed" --json >"$work/single.json"
same() {
    if cmp -s "$work/single.json" "$2"; then
        echo "$1: the merge of $parts shards equals the single run ($games games a variant)"
    else
        echo "$1: the merge differs from the single run:" >&2
        diff "$work/single.json" "$2" | head -20 >&2
        exit 1
    fi
}

# GNU parallel, as docs/lab.md gives it.
TANKTABLE="$program" benches/lab-parallel.sh "$parts" "$work/parallel" \
    "$question" -n "$games" --seed "$seed" --json >"$work/parallel.json"
same "GNU parallel" "$work/parallel.json"

# Slurm: each task of the array, its index set by hand.
for i in $(seq "$parts"); do
    PATH="$bin:$PATH" SLURM_ARRAY_TASK_ID=$i SLURM_ARRAY_TASK_COUNT=$parts \
        QUESTION="$question" GAMES=$games SEED=$seed OUT="$work/slurm" \
        bash docs/jobs/lab-slurm.sh 2>/dev/null
done
"$program" lab merge --json "$work/slurm"/part*.json >"$work/slurm.json"
same "Slurm job array" "$work/slurm.json"

# Kubernetes: the container's command line with the Job's env, JOB_COMPLETION_INDEX set by
# hand (the question's size and the shards' folder changed for the check).
yaml=docs/jobs/lab-kubernetes.yaml
line=$(sed -n '/^ *- -c$/{n;s/^ *- //;p;}' "$yaml")
[ -n "$line" ] || { echo "no '- -c' command line in $yaml" >&2; exit 1; }
env=$(awk '/- name: /{name=$3} /value: /{v=$0; sub(/^ *value: /, "", v); gsub(/"/, "", v); print name "=" v}' "$yaml")
mkdir -p "$work/kubernetes"
for k in $(seq 0 $((parts - 1))); do
    env -i PATH="$bin:$PATH" HOME="$HOME" $env GAMES=$games SEED=$seed PARTS=$parts THREADS=1 \
        OUT="$work/kubernetes" JOB_COMPLETION_INDEX=$k /bin/sh -c "$line" 2>/dev/null
done
"$program" lab merge --json "$work/kubernetes"/part*.json >"$work/kubernetes.json"
same "Kubernetes Indexed Job" "$work/kubernetes.json"
