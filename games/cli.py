"""How this project's command-line tools end: quietly when their reader stops early.

`python -m games bench | head -1` closes the pipe after one line; a Unix tool then
ends without a word, where Python prints a BrokenPipeError traceback (or "Exception
ignored" when the error comes from the flush at exit).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

EXIT_READER_GONE = 141  # 128 + SIGPIPE: what a shell reports for a tool the pipe ended


def run_main(main: Callable[[], int | None]) -> None:
    """Run a command's `main` and exit with its status."""
    try:
        try:
            status = main()
        except SystemExit as exc:  # argparse, Django's commands: their status, flushed here too
            status = exc.code
        sys.stdout.flush()  # inside the try: a closed pipe shows here, not at exit
    except BrokenPipeError:
        # Python flushes stdout once more at exit: point it at the null device so
        # that flush has nowhere to fail.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        sys.exit(EXIT_READER_GONE)
    sys.exit(status)
