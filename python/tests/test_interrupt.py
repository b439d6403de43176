"""Ctrl-C stops a long search: SIGINT raises KeyboardInterrupt within moments (the search
runs with a stop flag the engine polls while the caller checks for signals), and the
interpreter and the package go on working."""

import os
import signal
import subprocess
import sys
import time

import pytest

# After the opening d3 c3 e6 d6 b2 f6 c6 e3: 52 empties, far more than minutes for any of
# these searches.
OPENING = "---------X--------XXO------XO------XO-----XOOO------------------ X"

SEARCHES = {
    "best_move": f"tessera.best_move('othello', {OPENING!r}, depth=30)",
    "analyze": f"tessera.analyze('othello', {OPENING!r}, depth=30)",
    "solve othello": f"tessera.solve('othello', {OPENING!r})",
    "solve quixo": "tessera.solve('quixo', tessera.Game('quixo').position(), max_plies=40)",
    "Engine.choose": f"tessera.Engine('othello', depth=30).choose({OPENING!r})",
}

# The child restores Python's own SIGINT handler: a process started in the background by a
# non-interactive shell (nohup CMD &, some CI runners) inherits SIGINT ignored, and Python
# then leaves it ignored.
CHILD = """
import signal, sys, time, tessera
signal.signal(signal.SIGINT, signal.default_int_handler)
t = time.monotonic()
try:
    print("ready", flush=True)
    {search}
    print("finished", flush=True)
except KeyboardInterrupt:
    print(f"interrupted {{time.monotonic() - t:.2f}}", flush=True)
# The package still works after the interrupt.
print(tessera.best_move("othello", depth=1)["move"], flush=True)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process is POSIX")
@pytest.mark.parametrize("name", SEARCHES)
def test_sigint_interrupts_a_long_search(name):
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD.format(search=SEARCHES[name])],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout.readline().strip() == "ready"
        time.sleep(1.0)
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        # Generous bounds for a loaded CI machine: the search stops within milliseconds.
        out, err = child.communicate(timeout=30)
        took = time.monotonic() - sent
    finally:
        if child.poll() is None:
            os.kill(child.pid, signal.SIGKILL)
            child.wait()
    assert child.returncode == 0, err
    lines = out.split()
    assert lines[0] == "interrupted", (out, err)
    assert took < 10, f"{name}: {took:.1f} s from SIGINT to exit"
    assert lines[2] in ("d3", "c4", "f5", "e6"), out
