#!/usr/bin/env bash
# A playtest lab run as a Slurm job array: each task plays one shard, and a job that
# waits for the array merges them. From the project's folder, with `tanktable` on PATH:
#
#   mkdir -p parts
#   jobid=$(sbatch --parsable docs/jobs/lab-slurm.sh)
#   sbatch --dependency=afterok:$jobid --wrap 'tanktable lab merge parts/part*.json > report.txt'
#
# Change the question with the variables below, exported before sbatch (sbatch passes the
# environment on): QUESTION (a variant file or setup), GAMES, SEED, OUT (the shards'
# folder). The array's size is the number of shards. To check the command line without
# Slurm, set the index by hand: SLURM_ARRAY_TASK_ID=3 SLURM_ARRAY_TASK_COUNT=8 bash
# docs/jobs/lab-slurm.sh (benches/lab-recipes.sh does, for every index).
#SBATCH --job-name=tanktable-lab
#SBATCH --array=1-8
#SBATCH --cpus-per-task=4
#SBATCH --time=01:00:00
#SBATCH --output=parts/slurm-%A-%a.log
set -euo pipefail

: "${QUESTION:=scenarios/lab/skirmish-tougher-hulls.ron}"
: "${GAMES:=20000}"
: "${SEED:=1}"
: "${OUT:=parts}"
: "${SLURM_ARRAY_TASK_ID:?set by Slurm for each task of the array (1 to N)}"
: "${SLURM_ARRAY_TASK_COUNT:?set by Slurm: the number of tasks in the array}"

mkdir -p "$OUT"
exec tanktable lab "$QUESTION" -n "$GAMES" --seed "$SEED" \
    --threads "${SLURM_CPUS_PER_TASK:-1}" \
    --shard "$SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT" \
    --out "$OUT/part$SLURM_ARRAY_TASK_ID.json"
