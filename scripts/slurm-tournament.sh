#!/bin/bash
# A tessera tournament as a Slurm job array: each array task plays one shard of the schedule
# into shards/TASK, and `tessera tournament merge` afterwards makes one report of them all.
#
#   sbatch scripts/slurm-tournament.sh            # 16 shards, one core each
#   tessera tournament merge shards/* --out merged  # when every task has finished
#
# A failed or preempted task is rerun with the same command (sbatch --array=7 ...): its
# shard resumes from its own records. Change the engines and rounds below; every task must
# use the same settings (merge refuses shards of different tournaments). Without Slurm the
# same script runs one shard: SLURM_ARRAY_TASK_ID=3 SLURM_ARRAY_TASK_COUNT=16 bash scripts/slurm-tournament.sh
#SBATCH --job-name=tessera-tournament
#SBATCH --array=1-16
#SBATCH --cpus-per-task=1
#SBATCH --time=02:00:00
#SBATCH --output=shards/slurm-%A_%a.out
set -euo pipefail

TESSERA=${TESSERA:-tessera}
ENGINES=${ENGINES:-othello-ab-d4,othello-ab-d6}
ROUNDS=${ROUNDS:-2000}
SEED=${SEED:-1}
OUT=${OUT:-shards}
: "${SLURM_ARRAY_TASK_ID:?run under sbatch --array, or set SLURM_ARRAY_TASK_ID}"
COUNT=${SLURM_ARRAY_TASK_COUNT:-16}

mkdir -p "$OUT"
exec "$TESSERA" tournament othello --engines "$ENGINES" --rounds "$ROUNDS" --seed "$SEED" \
    --concurrency "${SLURM_CPUS_PER_TASK:-1}" --shard "$SLURM_ARRAY_TASK_ID/$COUNT" \
    --out "$OUT/$SLURM_ARRAY_TASK_ID" --no-progress
