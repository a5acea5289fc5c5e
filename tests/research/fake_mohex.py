#!/usr/bin/env python3
"""A stand-in for the MoHex binary in the research scripts' tests: GTP that crashes on ``genmove``.

It answers ``=`` to every command; ``genmove`` first writes ``$FAKE_MOHEX_LOG`` to its log
(stderr), as MoHex does before its known crash, then dies of a segmentation fault; or,
when ``$FAKE_MOHEX_MOVE`` is set, answers that move instead (a search that went well).
"""

import os
import signal
import sys


def main() -> None:
    """Answer GTP on stdin; on ``genmove``, log, then crash (or answer ``$FAKE_MOHEX_MOVE``)."""
    for line in sys.stdin:
        if line.startswith("genmove"):
            sys.stderr.write(os.environ.get("FAKE_MOHEX_LOG", "") + "\n")
            sys.stderr.flush()
            move = os.environ.get("FAKE_MOHEX_MOVE")
            if move:
                sys.stdout.write(f"= {move}\n\n")
                sys.stdout.flush()
                continue
            os.kill(os.getpid(), signal.SIGSEGV)
        sys.stdout.write("= \n\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
