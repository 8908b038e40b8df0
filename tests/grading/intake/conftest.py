"""The submission folder each intake test builds, beside the secret (submission_tree.py)."""
import pytest

from tests.grading.intake.submission_tree import SECRET


@pytest.fixture
def tree(tmp_path):
    """(submission folder, secret file outside it, destination path not yet created)."""
    secret = tmp_path / "source" / "secret.ipynb"
    secret.parent.mkdir()
    secret.write_bytes(SECRET)
    secret.chmod(0o600)
    folder = tmp_path / "inbound" / "alice+score_gradient+2024-05-01 10:00:00.000000 UTC"
    folder.mkdir(parents=True)
    (folder / "timestamp.txt").write_text("2024-05-01 10:00:00.000000 UTC")
    return folder, secret, tmp_path / "staged"
