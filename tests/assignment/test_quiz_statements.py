"""Nothing in the public repository decides a graded statement (issue 36): a secret quiz's conceptual statements come
from the instructor's own file, kept outside the repository and the course (classroom.quiz.statements,
classroom quiz-variant), and no statement of a generated quiz, true or false, is written in any repository file."""
import json
import re
import shutil
import subprocess

import pytest

from classroom.quiz import statements as statement_files
from coursekit.quiz.statements import write_private
from coursekit.repository import ROOT
from classroom.app import quiz as tool

SEED = "an instructor's secret 4410"
OPTION = re.compile(r"^- \*\*[a-z]\)\*\* (.+)$", re.M)


def normalised(text):
    """Letters and digits only, lower case, with adjacent Python string literals joined (a statement split over
    source lines reads as one)."""
    joined = re.sub(r"""["']\s*\n\s*[rRfFbBuU]{0,2}["']""", "", text)
    return re.sub(r"[^0-9a-z]", "", joined.lower())


@pytest.fixture(scope="module")
def repository_text():
    """Every file git tracks in the repository (release/ and source/ included), normalised, as one text."""
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    texts = []
    for name in filter(None, files.decode().split("\0")):
        try:
            texts.append((ROOT / name).read_text(encoding="utf-8"))
        except (UnicodeDecodeError, FileNotFoundError, IsADirectoryError):
            continue
    return "\n".join(normalised(text) for text in texts)


def statements_of(quiz_path):
    """The text of every lettered statement of a quiz notebook, as the student reads it."""
    cells = json.loads(quiz_path.read_text())["cells"]
    return [m for cell in cells if cell["cell_type"] == "markdown" for m in OPTION.findall("".join(cell["source"]))]


@pytest.fixture
def generate(tmp_path, monkeypatch, in_process):
    """`generate(*ARGV)`: `classroom quiz-variant ARGV` writing tmp_path/quiz.ipynb from SEED; its exit status."""
    monkeypatch.setenv("QUIZ_SEED", SEED)
    return lambda *argv: in_process("quiz-variant", "--notebook", str(tmp_path / "quiz.ipynb"), "--no-release", *argv)


def test_no_statement_of_a_secret_quiz_is_in_a_repository_file(tmp_path, monkeypatch, repository_text, generate):
    private = write_private(tmp_path)
    assert generate("--statements", str(private)) == 0
    options = statements_of(tmp_path / "quiz.ipynb")
    assert len(options) == 5 + 5 + 5 + 4  # questions 2 to 5
    found = [text for text in options if normalised(text) in repository_text]
    assert not found, f"statements of the graded quiz that a repository file holds: {found}"


def test_the_search_finds_the_public_demos_statements(repository_text):
    """The check above can fail: the demo variant's conceptual statements are in the repository, and are found."""
    options = statements_of(ROOT / "source" / "score_gradient" / "intuition_quiz.ipynb")
    demo = statement_files.wordings(statement_files.demo())
    conceptual = [text for text in options if text in demo]
    assert conceptual and all(normalised(text) in repository_text for text in conceptual)


def test_a_secret_quiz_without_private_statements_is_refused(tmp_path, monkeypatch, capsys, generate):
    assert generate() == 2
    err = capsys.readouterr().err
    assert "c.QuizStatements.path" in err and "demo_statements.json" in err and "Nothing was written" in err
    assert not (tmp_path / "quiz.ipynb").exists()


def test_statements_inside_the_repository_or_copied_from_the_demo_are_refused(tmp_path, monkeypatch, capsys, generate):
    assert generate("--statements", str(statement_files.DEMO)) == 2
    assert "which students may read" in capsys.readouterr().err
    copy = tmp_path / "elsewhere" / "mine.json"
    copy.parent.mkdir()
    shutil.copy(statement_files.DEMO, copy)
    assert generate("--statements", str(copy)) == 2
    assert "wording(s) of the public demo" in capsys.readouterr().err
    assert not (tmp_path / "quiz.ipynb").exists()


def test_the_configured_path_is_read_from_nbgrader_config(tmp_path, monkeypatch):
    """A course names its file once, in nbgrader_config.py (c.QuizStatements.path)."""
    course = tmp_path / "course"
    (course / "source" / "score_gradient").mkdir(parents=True)
    private = write_private(tmp_path)
    (course / "nbgrader_config.py").write_text(f"c = get_config()\nc.QuizStatements.path = {str(private)!r}\n")
    quiz = course / "source" / "score_gradient" / "quiz.ipynb"
    assert tool.private_statements(quiz, "") == statement_files.read(private)


def test_a_statements_file_missing_or_of_the_wrong_form_is_named(tmp_path):
    with pytest.raises(statement_files.StatementsError, match="does not exist"):
        statement_files.read(tmp_path / "missing.json")
    short = tmp_path / "short.json"
    short.write_text(json.dumps({"q2_why_the_root": []}))
    with pytest.raises(statement_files.StatementsError, match="`q2_why_the_root` should be a list of at least 4"):
        statement_files.read(short)
