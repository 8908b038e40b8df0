"""`classroom quiz-variant` (make quiz-variant): write the graded quiz, source/score_gradient/intuition_quiz.ipynb,
as the variant drawn from the instructor's secret seed, then release it as `classroom release` does.

    make quiz-variant QUIZ_SEED=<a secret of yours, at least 12 characters>   # then commit, privately
    classroom quiz-variant --public --no-release                             # the variant this repository ships

The seed comes from the environment (QUIZ_SEED), never the command line, and is written into no file: keep it to
yourself (it redraws the same quiz, key included), and commit the regenerated source/ only to a private course
repository. release/ and the feedback carry the questions and, once graded, the explanations of wrong answers, never
the seed. A secret variant's conceptual statements come from the instructor's own file, kept outside the course
directory: `c.QuizStatements.path`, or --statements; without one, a secret variant is refused
(classroom.quiz.statements). The notebook itself is written by classroom.quiz.notebook; the quiz authoring modules
are left out of the hub's shared environment, so this runs from the instructors' clone only.
"""
import os
from pathlib import Path

from traitlets import Bool, Unicode

from .base import Command
from . import instructor

MIN_SEED = 12
REPOSITORY = Path(__file__).resolve().parents[2]  # students may read all of it: no private file lives here


def course_root(path):
    """The course `path` belongs to: the folder above it that holds nbgrader_config.py, or None."""
    return next((folder for folder in path.resolve().parents if (folder / "nbgrader_config.py").is_file()), None)


def private_statements(path, given):
    """The instructor's statements for a secret variant: the file `given` (--statements), else c.QuizStatements.path
    of the course `path` belongs to; StatementsError (classroom.quiz.statements) saying what to do without one."""
    from .. import course
    from ..quiz import notebook, statements

    root = course_root(path)
    if not given and root is not None:
        given = statements.QuizStatements(config=course.course_app([notebook.ASSIGNMENT], root=root).config).path
    return statements.private(given, [REPOSITORY, *([root] if root else [])])


def handed_out_refusal(path, quiz):
    """Why the quiz at `path` may not become `quiz` (it is handed out: classroom.decisions.quiz_key), or None. The
    course is the folder above `path` that holds nbgrader_config.py (none: nothing is handed out)."""
    from .. import course
    from ..decisions import quiz_key
    from ..quiz.notebook import ASSIGNMENT

    root = course_root(path)
    if root is None:
        return None
    app = course.course_app([ASSIGNMENT], root=root)
    gb = quiz_key.open_gradebook(app.coursedir)
    try:
        new_key = quiz_key.digest((cell.metadata.nbgrader["grade_id"], cell.source) for cell in quiz.cells
                                  if cell.metadata.get("nbgrader", {}).get("grade"))
        return quiz_key.refusal(app, gb, ASSIGNMENT, new_key, "`make quiz-variant`")
    finally:
        if gb is not None:
            gb.close()


class QuizVariantCommand(Command):
    """`classroom quiz-variant [--public] [--statements PATH] [--replace-handed-out] [--no-release]` (see the
    module)."""

    description = ("Write the graded quiz (source/score_gradient/intuition_quiz.ipynb) as the variant drawn from "
                   "QUIZ_SEED (a secret of yours, from the environment), then release it as `classroom release` does.")
    public = Bool(False, help="Draw the variant of the public seed, the one this repository ships.").tag(config=True)
    replace_handed_out = Bool(False, help="Write and release the new quiz even though the current one is handed out, "
                              "knowingly (every student must then fetch the new one), recording its key: what `make "
                              "quiz-variant QUIZ_REPLACE=yes` passes.").tag(config=True)
    statements = Unicode("", help="The file of your own conceptual statements, kept outside the course (default: "
                         "c.QuizStatements.path): what `make quiz-variant QUIZ_STATEMENTS=PATH` passes.").tag(
        config=True)
    notebook = Unicode("", help="The quiz notebook to write (default: the one in the course's source/, as "
                       "nbgrader_config.py names it).").tag(config=True)
    release = Bool(True, help="Release the quiz once written (nbgrader generate_assignment, as `classroom release` "
                   "does).").tag(config=True)
    aliases = {"statements": "QuizVariantCommand.statements", "notebook": "QuizVariantCommand.notebook"}
    flags = {"public": ({"QuizVariantCommand": {"public": True}}, public.help),
             "replace-handed-out": ({"QuizVariantCommand": {"replace_handed_out": True}}, replace_handed_out.help),
             "no-release": ({"QuizVariantCommand": {"release": False}},
                            "Write source/ only (`classroom release` or the formgrader's Generate releases it).")}

    def quiz_path(self, assignment, name):
        if self.notebook:
            return Path(self.notebook)
        return Path(self.coursedir.format_path(self.coursedir.source_directory, ".", assignment)) / f"{name}.ipynb"

    def run(self):
        try:
            import nbformat

            from ..quiz import notebook, statements
            from ..quiz.variants import PUBLIC_SEED, draw
        except ModuleNotFoundError as exc:  # the hub's shared environment leaves classroom/quiz/ out
            return self.refuse(f"the quiz authoring modules are not installed here ({exc.name}): run it from the "
                               "instructors' clone. Nothing was written.")
        seed = PUBLIC_SEED if self.public else os.environ.get("QUIZ_SEED", "")
        if not self.public and len(seed.strip()) < MIN_SEED:
            said = (f"QUIZ_SEED has {len(seed.strip())} characters, too few to stay secret" if seed
                    else "QUIZ_SEED is not set")
            return self.refuse(f"{said}. Choose a secret of at least {MIN_SEED} characters, keep it to yourself, and "
                               "run `make quiz-variant QUIZ_SEED=<your secret>`. Nothing was written.")
        path = self.quiz_path(notebook.ASSIGNMENT, notebook.NOTEBOOK)
        try:
            drawn_from = None if self.public else private_statements(path, self.statements)
        except statements.StatementsError as exc:
            return self.refuse(f"{exc}. Nothing was written.")
        quiz = notebook.quiz_notebook(draw(seed, drawn_from))
        refused = None if self.replace_handed_out else handed_out_refusal(path, quiz)
        if refused:
            return self.refuse(refused)
        nbformat.write(quiz, path)
        self.say(f"wrote {os.path.relpath(path)} from the {'public' if self.public else 'secret'} seed" +
                 ("" if self.public else "; commit it to a private repository only: the source notebook holds the key"))
        return instructor.release(self, notebook.ASSIGNMENT, self.replace_handed_out) if self.release else 0
