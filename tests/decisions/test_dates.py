"""classroom.decisions.dates: every due date read as the time it names, or refused saying how to write it, and
what nbgrader's parse_utc passes through it as before (the seam that puts it in nbgrader's place:
tests/test_nbgrader_seams.py)."""
import datetime

import pytest

from classroom.decisions import dates

UTC = datetime.datetime


# ---- due dates ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("written, utc", [
    ("2026-12-14 23:59:00 UTC", UTC(2026, 12, 14, 23, 59)),
    ("2026-12-01 09:05:00 -0500", UTC(2026, 12, 1, 14, 5)),  # nbgrader 0.9.5: 09:13:20
    ("2026-12-01 09:05:00 -05:00", UTC(2026, 12, 1, 14, 5)),
    ("2026-12-01T09:05:00-05:00", UTC(2026, 12, 1, 14, 5)),
    ("2026-12-01 09:05:00 +0530", UTC(2026, 12, 1, 3, 35)),
    ("2026-12-01 09:05:00 Z", UTC(2026, 12, 1, 9, 5)),
    ("2026-12-01 09:05:00 GMT", UTC(2026, 12, 1, 9, 5)),
    ("2026-12-01 09:05:00 EST", UTC(2026, 12, 1, 14, 5)),
    ("2026-12-01 09:05:00 CET", UTC(2026, 12, 1, 8, 5)),
    ("2026-12-01 09:05:00 America/New_York", UTC(2026, 12, 1, 14, 5)),
    ("2026-07-01 09:05:00 America/New_York", UTC(2026, 7, 1, 13, 5)),
    ("2026-12-01 09:05:00 Europe/Berlin", UTC(2026, 12, 1, 8, 5)),
    ("2015-02-02 14:58:23.948203 America/Los_Angeles", UTC(2015, 2, 2, 22, 58, 23, 948203)),  # nbgrader's tests
    ("Sun Jan 8 2017 4:31:22 PM", UTC(2017, 1, 8, 16, 31, 22)),
    ('"2026-12-14 23:59:00"', UTC(2026, 12, 14, 23, 59)),
    ("2026-12-01T09:05 -0500", UTC(2026, 12, 1, 14, 5)),  # the formgrader: its date field, a space, its zone field
    ("2026-11-30 10:00:00.123456 UTC", UTC(2026, 11, 30, 10, 0, 0, 123456)),  # nbgrader's own timestamps
])
def test_a_due_date_is_read_as_the_time_it_names(written, utc):
    assert dates.parse_due(written) == utc
    assert dates.parse_utc(written) == utc


@pytest.mark.parametrize("written, why", [
    ("2026-12-01 09:05:00 PST", "the time zone 'PST' is unknown"),
    ("2026-12-01 09:05 PM XYZ", "the time zone 'XYZ' is unknown"),
    ("2026-12-01 09:05:00 Europe/Nowhere", "the time zone 'Europe/Nowhere' is unknown"),
    ("2026-12-01 09:05:00 UTC-5", "opposite sign"),
    ("2026-12-01 09:05:00 GMT+1", "opposite sign"),
    ("2026-03-08 02:30:00 America/New_York", "does not exist"),
    ("2026-11-01 01:30:00 America/New_York", "happens twice"),
    ("2026-12-01 09:05:00 -0500 EST", "cannot be read"),
    ("soon", "cannot be read"),
    ("", "it is empty"),
])
def test_a_due_date_that_cannot_be_read_for_sure_is_refused_saying_how_to_write_it(written, why):
    with pytest.raises(dates.DueDateError) as refused:
        dates.parse_due(written)
    assert why in str(refused.value) and "2026-12-14 23:59:00 -0500" in str(refused.value)


def test_datetimes_and_none_pass_as_nbgraders_parse_utc_passes_them():
    aware = datetime.datetime(2026, 12, 1, 9, 5, tzinfo=datetime.timezone(datetime.timedelta(hours=-5)))
    assert dates.parse_utc(aware) == UTC(2026, 12, 1, 14, 5) and dates.parse_utc(None) is None
