"""A pytest plugin for `make nbgrader-contract` (tools/nbgrader_contract.py): nbgrader's tests look up the gradebook
schema's alembic head once per pytest worker, not once per gradebook they make.

Each time nbgrader's Gradebook makes a new gradebook it stamps it with the head of nbgrader's own migrations, which
it reads by running `alembic heads` (nbgrader.api.get_alembic_version): a process of about a second of CPU time.
nbgrader's app tests make a gradebook in nearly every test, so about 80 of those processes were 85 of the contract's
200 CPU seconds. The head is a property of the installed nbgrader (its migration scripts), the same answer every
time, so the first real answer is kept for the rest of the worker's tests; nothing a test checks changes.
tests/setup/test_nbgrader_contract.py fails if nbgrader stops reading the head through that function.
"""
import functools

import nbgrader.api


def pytest_configure(config):
    nbgrader.api.get_alembic_version = functools.cache(nbgrader.api.get_alembic_version)
