"""`python -m classroom.decisions`: make extension, make drop, make decisions (classroom.decisions.store)."""
import sys

from .store import main

sys.exit(main())
