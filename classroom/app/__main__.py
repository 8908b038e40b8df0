"""`python -m classroom.app ...`: the `classroom` command (classroom.app.main)."""
import sys

from .main import main

sys.exit(main())
