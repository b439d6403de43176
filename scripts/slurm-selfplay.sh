#!/bin/bash
# tessera self-play data as a Slurm job array (guide: docs/cluster.md). Array task I plays
# shard I/SHARDS of the games into $OUT/I.txt; when every task has finished, `--merge`
# writes the data lines of the run in one piece (same positions, labels and order):
#
#   sbatch scripts/slurm-selfplay.sh
#   tessera selfplay othello --merge "$(ls selfplay-shards/*.txt | paste -sd,)" --out data/selfplay.txt
#
# Settings come from the environment of the submitting shell (sbatch passes it on):
#   TESSERA  the tessera program on the nodes [tessera, looked up on the job's PATH]
#   GAME     the game [othello]
#   ENGINE   the engine playing both sides [othello-ab-d3]
#   GAMES    games of the whole run [16000]
#   PLIES    random opening plies, N or MIN-MAX [2-20]
#   SEED     master seed [1]
#   SHARDS   shards the games are split into [16, as the --array line below]; another
#            count is submitted with its own array: SHARDS=8 sbatch --array=1-8 ...
#   EXTRA    more options for every task, split at spaces [none], e.g. EXTRA='--exact-empties 16'
#   OUT      directory of the shard files [selfplay-shards]; it and the log directory
#            must be on a filesystem every node shares
# Logs: tessera-selfplay-JOB_TASK.out in the directory sbatch ran in.
# A failed or preempted task is rerun alone; it plays its shard again (the same games) and
# replaces the file whole: sbatch --array=7 scripts/slurm-selfplay.sh
# Without Slurm the same script runs one task: SLURM_ARRAY_TASK_ID=3 bash scripts/slurm-selfplay.sh
# Bad settings (task beyond SHARDS, tessera missing on a node) end the task with one line
# on stderr and exit status 2.
#SBATCH --job-name=tessera-selfplay
#SBATCH --array=1-16
#SBATCH --cpus-per-task=1
#SBATCH --time=02:00:00
#SBATCH --output=%x-%A_%a.out
set -euo pipefail

TESSERA=${TESSERA:-tessera}
GAME=${GAME:-othello}
ENGINE=${ENGINE:-othello-ab-d3}
GAMES=${GAMES:-16000}
PLIES=${PLIES:-2-20}
SEED=${SEED:-1}
SHARDS=${SHARDS:-16}
OUT=${OUT:-selfplay-shards}
EXTRA=${EXTRA:-}
TASK=${SLURM_ARRAY_TASK_ID:-}

fail() { echo "error: slurm-selfplay.sh: $*" >&2; exit 2; }
[[ $TASK =~ ^[1-9][0-9]*$ ]] || fail "no array task id: submit with sbatch (--array), or set SLURM_ARRAY_TASK_ID"
[[ $SHARDS =~ ^[1-9][0-9]*$ ]] || fail "SHARDS='$SHARDS' is not a shard count (a number >= 1)"
((TASK <= SHARDS)) || fail "array task $TASK is beyond SHARDS=$SHARDS: submit --array=1-$SHARDS or set SHARDS"
command -v "$TESSERA" >/dev/null 2>&1 || fail "'$TESSERA' not found on $(hostname) (PATH=$PATH): install tessera there or set TESSERA=/path/to/tessera"

read -ra extra <<<"$EXTRA"
mkdir -p "$OUT"
exec "$TESSERA" selfplay "$GAME" --engine "$ENGINE" --games "$GAMES" --random-plies "$PLIES" \
    --seed "$SEED" --threads "${SLURM_CPUS_PER_TASK:-1}" \
    --shard "$TASK/$SHARDS" --out "$OUT/$TASK.txt" --no-progress "${extra[@]}"
