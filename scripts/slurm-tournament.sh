#!/bin/bash
# A tessera tournament as a Slurm job array (guide: docs/cluster.md). Array task I plays
# shard I/SHARDS of the schedule into $OUT/I; when every task has finished, one report:
#
#   sbatch scripts/slurm-tournament.sh
#   tessera tournament merge tournament-shards/* --out merged
#
# Settings come from the environment of the submitting shell (sbatch passes it on):
#   TESSERA  the tessera program on the nodes [tessera, looked up on the job's PATH]
#   GAME     the game [othello]
#   ENGINES  the engines, comma-separated [othello-ab-d4,othello-ab-d6]
#   ROUNDS   rounds of the whole tournament [2000]
#   SEED     master seed [1]
#   SHARDS   shards the schedule is split into [16, as the --array line below]; another
#            count is submitted with its own array: SHARDS=8 sbatch --array=1-8 ...
#   EXTRA    more options for every task, split at spaces [none], e.g. EXTRA='--adjudicate exact=12 --engine name=mine,depth=4'
#   OUT      directory of the shard directories [tournament-shards]; it and the log
#            directory must be on a filesystem every node shares
# Logs: tessera-tournament-JOB_TASK.out in the directory sbatch ran in.
# A failed or preempted task is rerun alone and resumes from its own records:
#   sbatch --array=7 scripts/slurm-tournament.sh
# Without Slurm the same script runs one task: SLURM_ARRAY_TASK_ID=3 bash scripts/slurm-tournament.sh
# Bad settings (task beyond SHARDS, tessera missing on a node) end the task with one line
# on stderr and exit status 2.
#SBATCH --job-name=tessera-tournament
#SBATCH --array=1-16
#SBATCH --cpus-per-task=1
#SBATCH --time=02:00:00
#SBATCH --output=%x-%A_%a.out
set -euo pipefail

TESSERA=${TESSERA:-tessera}
GAME=${GAME:-othello}
ENGINES=${ENGINES:-othello-ab-d4,othello-ab-d6}
ROUNDS=${ROUNDS:-2000}
SEED=${SEED:-1}
SHARDS=${SHARDS:-16}
OUT=${OUT:-tournament-shards}
EXTRA=${EXTRA:-}
TASK=${SLURM_ARRAY_TASK_ID:-}

fail() { echo "error: slurm-tournament.sh: $*" >&2; exit 2; }
[[ $TASK =~ ^[1-9][0-9]*$ ]] || fail "no array task id: submit with sbatch (--array), or set SLURM_ARRAY_TASK_ID"
[[ $SHARDS =~ ^[1-9][0-9]*$ ]] || fail "SHARDS='$SHARDS' is not a shard count (a number >= 1)"
((TASK <= SHARDS)) || fail "array task $TASK is beyond SHARDS=$SHARDS: submit --array=1-$SHARDS or set SHARDS"
command -v "$TESSERA" >/dev/null 2>&1 || fail "'$TESSERA' not found on $(hostname) (PATH=$PATH): install tessera there or set TESSERA=/path/to/tessera"

read -ra extra <<<"$EXTRA"
mkdir -p "$OUT"
exec "$TESSERA" tournament "$GAME" --engines "$ENGINES" --rounds "$ROUNDS" --seed "$SEED" \
    --concurrency "${SLURM_CPUS_PER_TASK:-1}" --shard "$TASK/$SHARDS" \
    --out "$OUT/$TASK" --no-progress "${extra[@]}"
