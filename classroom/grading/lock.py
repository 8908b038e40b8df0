"""`python -m classroom.grading.lock COMMAND [ARGS...]`, the name `make feedback` runs the lock's command by; the lock
and the command live in classroom.bookkeeping.lock, below grading and the decisions, which both take it."""
import sys

from ..bookkeeping.lock import main

if __name__ == "__main__":
    sys.exit(main())
