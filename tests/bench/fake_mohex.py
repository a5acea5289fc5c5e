#!/usr/bin/env python3
"""A stand-in for the MoHex binary in the match driver's tests: GTP that crashes on ``genmove``.

It answers ``=`` to every command; ``genmove`` first writes ``$FAKE_MOHEX_LOG`` to its log
(stderr), as MoHex does before its known crash, then dies of a segmentation fault.
"""

import os
import signal
import sys


def main() -> None:
    """Answer GTP on stdin until ``genmove``, then log and crash."""
    for line in sys.stdin:
        if line.startswith("genmove"):
            sys.stderr.write(os.environ.get("FAKE_MOHEX_LOG", "") + "\n")
            sys.stderr.flush()
            os.kill(os.getpid(), signal.SIGSEGV)
        sys.stdout.write("= \n\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
