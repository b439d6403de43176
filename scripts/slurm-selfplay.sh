#!/bin/bash
# tessera self-play data as a Slurm job array: each array task plays one shard of the games
# into shards/TASK.txt, and `tessera selfplay GAME --merge ...` afterwards writes the file the
# run in one piece writes (same positions, labels and order).
#
#   sbatch scripts/slurm-selfplay.sh                 # 16 shards, one core each
#   tessera selfplay othello --merge "$(ls shards/*.txt | paste -sd,)" --out data/selfplay.txt
#
# A failed or preempted task is rerun with sbatch --array=7 ... (a shard is rewritten whole).
# Every task must use the same settings (merge refuses shards of different runs). Without
# Slurm the same script runs one shard:
#   SLURM_ARRAY_TASK_ID=3 SLURM_ARRAY_TASK_COUNT=16 bash scripts/slurm-selfplay.sh
#SBATCH --job-name=tessera-selfplay
#SBATCH --array=1-16
#SBATCH --cpus-per-task=1
#SBATCH --time=02:00:00
#SBATCH --output=shards/slurm-%A_%a.out
set -euo pipefail

TESSERA=${TESSERA:-tessera}
GAME=${GAME:-othello}
ENGINE=${ENGINE:-othello-ab-d3}
GAMES=${GAMES:-16000}
PLIES=${PLIES:-2-20}
SEED=${SEED:-1}
OUT=${OUT:-shards}
: "${SLURM_ARRAY_TASK_ID:?run under sbatch --array, or set SLURM_ARRAY_TASK_ID}"
COUNT=${SLURM_ARRAY_TASK_COUNT:-16}

mkdir -p "$OUT"
exec "$TESSERA" selfplay "$GAME" --engine "$ENGINE" --games "$GAMES" --random-plies "$PLIES" \
    --seed "$SEED" --threads "${SLURM_CPUS_PER_TASK:-1}" \
    --shard "$SLURM_ARRAY_TASK_ID/$COUNT" --out "$OUT/$SLURM_ARRAY_TASK_ID.txt" --no-progress
