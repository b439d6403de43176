#!/bin/bash
# The Quixo one-blank tier table as Slurm job arrays (guide: docs/cluster.md, "The Quixo
# one-blank tier"). Each value-iteration round is one array of CHUNKS independent tasks
# (task I computes chunk I-1 of the round from the previous round's table), followed by one
# merge job (afterok) that checks every chunk and writes the round's table; the merge submits
# the next round until a round changes nothing, then writes the finished table to OUT.
#
#   tessera solve quixo --table "$TABLE" --position "XOOOO/OXXOX/OXXXX/XXXOO/XOOOO X"  # the full-board table, once
#   TABLE=/shared/quixo-full5-v1.bin DIR=/shared/tier1 OUT=/shared/quixo-tier1.qxt \
#       bash scripts/slurm-quixo-tier.sh submit
#
# Settings come from the environment of the submitting shell (sbatch passes it on):
#   TESSERA  the tessera program on the nodes [tessera, looked up on PATH]
#   TABLE    the 5x5 full-board table file, on a shared filesystem [required]
#   DIR      folder of the round and chunk files, shared [tier1-rounds]
#   OUT      the finished table [quixo-tier1.qxt]
#   CHUNKS   chunks per round [24, as the --array line below]
#   SIZE     board side, 5 or 4 (the small analogue) [5]
#   ROUND    the round a task or merge works on [1]; STEP=merge for the merge job
# Logs: tessera-quixo-tier-JOB_TASK.out. A failed task is rerun alone (it rewrites its chunk
# file whole): ROUND=7 sbatch --array=5 scripts/slurm-quixo-tier.sh; then resubmit the merge:
# ROUND=7 STEP=merge sbatch scripts/slurm-quixo-tier.sh.
# Without Slurm: `tessera quixo-tier run --chunks N --dir DIR --out OUT --table TABLE` runs the
# same chunks and merges in sequence. Bad settings end with one line on stderr, exit 2.
#SBATCH --job-name=tessera-quixo-tier
#SBATCH --array=1-24
#SBATCH --cpus-per-task=1
#SBATCH --mem=2G
#SBATCH --time=01:00:00
#SBATCH --output=%x-%A_%a.out
set -euo pipefail

TESSERA=${TESSERA:-tessera}
TABLE=${TABLE:-}
DIR=${DIR:-tier1-rounds}
OUT=${OUT:-quixo-tier1.qxt}
CHUNKS=${CHUNKS:-24}
SIZE=${SIZE:-5}
ROUND=${ROUND:-1}
STEP=${STEP:-chunk}
SCRIPT=${SCRIPT:-$(realpath "${BASH_SOURCE[0]}")}
export TESSERA TABLE DIR OUT CHUNKS SIZE SCRIPT

fail() { echo "error: slurm-quixo-tier.sh: $*" >&2; exit 2; }
[[ $CHUNKS =~ ^[1-9][0-9]*$ ]] || fail "CHUNKS='$CHUNKS' is not a chunk count (a number >= 1)"
[[ $ROUND =~ ^[1-9][0-9]*$ ]] || fail "ROUND='$ROUND' is not a round number (>= 1)"
[[ $SIZE == 4 || $SIZE == 5 ]] || fail "SIZE='$SIZE' is not 4 or 5"
command -v "$TESSERA" >/dev/null 2>&1 || fail "'$TESSERA' not found on $(hostname): set TESSERA=/path/to/tessera"
table=()
if [[ $SIZE == 5 ]]; then
    [[ -n $TABLE ]] || fail "set TABLE to the full-board table file on a shared filesystem"
    table=(--table "$TABLE")
fi

submit_round() { # $1 = round: its array, then its merge after every task succeeded
    local array
    array=$(ROUND=$1 STEP=chunk sbatch --parsable --array=1-"$CHUNKS" "$SCRIPT") || fail "sbatch failed"
    ROUND=$1 STEP=merge sbatch --parsable --array=0 --dependency=afterok:"${array%%;*}" "$SCRIPT" >/dev/null \
        || fail "sbatch of the merge failed"
    echo "round $1: array ${array%%;*} ($CHUNKS tasks) and its merge submitted"
}

case ${1:-$STEP} in
submit) submit_round "$ROUND" ;;
chunk)
    TASK=${SLURM_ARRAY_TASK_ID:-}
    [[ $TASK =~ ^[1-9][0-9]*$ ]] || fail "no array task id: submit with '$0 submit', or set SLURM_ARRAY_TASK_ID"
    ((TASK <= CHUNKS)) || fail "array task $TASK is beyond CHUNKS=$CHUNKS"
    exec "$TESSERA" quixo-tier chunk --size "$SIZE" "${table[@]}" --round "$ROUND" \
        --chunk "$((TASK - 1))/$CHUNKS" --dir "$DIR"
    ;;
merge)
    out=$("$TESSERA" quixo-tier merge --size "$SIZE" "${table[@]}" --round "$ROUND" \
        --chunks "$CHUNKS" --dir "$DIR" --out "$OUT") || exit $?
    echo "$out"
    if ! grep -q '; done$' <<<"$out"; then
        submit_round "$((ROUND + 1))"
    fi
    ;;
*) fail "unknown step '${1:-$STEP}' (submit, chunk or merge)" ;;
esac
