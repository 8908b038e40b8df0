"""A zip's member dates carry no time zone: the course reads them in c.SafeExtractor.zip_timezone, a zone of the
time-zone database, and refuses a name it does not know instead of taking the dates as UTC without a word."""
import datetime
import zipfile

import pytest
from traitlets import TraitError

from classroom.lms.extractor import SafeExtractor


def member(when):
    return zipfile.ZipInfo("alice_123_score_gradient.ipynb", date_time=when)


@pytest.mark.parametrize("zone, utc", [
    ("UTC", datetime.datetime(2026, 12, 1, 9, 5)),
    ("Europe/Berlin", datetime.datetime(2026, 12, 1, 8, 5)),       # CET, +01:00 in winter
    ("America/New_York", datetime.datetime(2026, 12, 1, 14, 5)),   # EST, -05:00
])
def test_a_members_date_is_read_in_the_zone_the_course_names(zone, utc):
    assert SafeExtractor(zip_timezone=zone).member_time(member((2026, 12, 1, 9, 5, 0))) == utc


def test_summer_time_applies_on_the_members_own_date():
    berlin = SafeExtractor(zip_timezone="Europe/Berlin")
    assert berlin.member_time(member((2026, 7, 1, 9, 5, 0))) == datetime.datetime(2026, 7, 1, 7, 5)  # CEST, +02:00


@pytest.mark.parametrize("zone", ["Europe/Nowhere", "PST", "", "../etc/passwd"])
def test_a_zone_the_machine_does_not_know_is_refused_saying_what_to_write(zone):
    with pytest.raises(TraitError) as refused:
        SafeExtractor(zip_timezone=zone)
    assert repr(zone) in str(refused.value) and "Europe/Berlin" in str(refused.value)
