#!/bin/sh
# Builds the GTP front end of Thanduriel/quixo's MCTS bot (quixo_peer_gtp.cpp, tessera's glue)
# against the peer's source at a pinned commit, in a scratch folder outside the repository.
#
#   tools/quixo-peer/build.sh [SCRATCH]        # default SCRATCH: /work/scratch/quixo-peer
#
# The peer's source is cloned into SCRATCH/src-8e0c47d (or taken from $QUIXO_PEER_GIT, a local
# clone or bare mirror of github.com/Thanduriel/quixo), checked out at the pinned commit, and
# SCRATCH/quixo-peer-gtp is built (g++ >= 8, C++17; about 10 s). Nothing of the peer enters the
# repository. Exit 2 with a one-line message when a step fails.
set -eu
COMMIT=8e0c47dcafd534a2c9ed3194137a1bb461909393
HERE=$(cd "$(dirname "$0")" && pwd)
SCRATCH=${1:-/work/scratch/quixo-peer}
SRC="$SCRATCH/src-8e0c47d"
fail() { echo "quixo-peer build: $*" >&2; exit 2; }
mkdir -p "$SCRATCH" || fail "cannot create $SCRATCH"
if [ ! -f "$SRC/src/bots/mctsbot.hpp" ]; then
    REPO=${QUIXO_PEER_GIT:-https://github.com/Thanduriel/quixo}
    TMP="$SCRATCH/src.tmp.$$"
    rm -rf "$TMP" && mkdir -p "$TMP"
    if [ -d "$REPO" ] && git --git-dir="$REPO" rev-parse --is-bare-repository >/dev/null 2>&1 \
        && [ "$(git --git-dir="$REPO" rev-parse --is-bare-repository)" = true ]; then
        git --git-dir="$REPO" archive "$COMMIT" | tar -x -C "$TMP" || fail "cannot extract $COMMIT from $REPO"
    else
        git clone --quiet "$REPO" "$TMP/clone" || fail "cannot clone $REPO"
        git -C "$TMP/clone" archive "$COMMIT" | tar -x -C "$TMP" || fail "commit $COMMIT not found in $REPO"
        rm -rf "$TMP/clone"
    fi
    mv "$TMP" "$SRC"   # complete source or nothing
fi
g++ -std=c++17 -O3 -DNDEBUG -march=native -I"$SRC/src" "$HERE/quixo_peer_gtp.cpp" \
    "$SRC/src/game/board.cpp" "$SRC/src/utils/random.cpp" -o "$SCRATCH/quixo-peer-gtp.tmp" \
    || fail "g++ failed"
mv "$SCRATCH/quixo-peer-gtp.tmp" "$SCRATCH/quixo-peer-gtp"
echo "built $SCRATCH/quixo-peer-gtp (Thanduriel/quixo ${COMMIT%"${COMMIT#???????}"})"
