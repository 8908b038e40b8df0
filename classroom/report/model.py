"""The class report's data: what `read_summary` reads from the course, and what the figure, the CSV and the page show.

Plain frozen dataclasses, no file access: every number the report writes is a field or a property here, so the
tests check the numbers on a Summary and the writers only lay them out.
"""
from collections import Counter
from dataclasses import dataclass
from statistics import mean, median


def number(x):
    """A score or a count as the report writes it everywhere: 16, 2.5 (no trailing zeros)."""
    return f"{x:g}"


def percent(share):
    return f"{100 * share:.0f}%"


@dataclass(frozen=True)
class Check:
    """A grade cell that checks the answer (an answer cell graded by running it is not a check of its own)."""
    notebook: str
    grade_id: str
    points: float
    description: str  # the docstring opening the grade cell: what it checks, hence the mistake that fails it
    hidden: bool      # it holds hidden tests (whose code the report never shows)

    @property
    def key(self):
        return (self.notebook, self.grade_id)


@dataclass(frozen=True)
class Handed:
    """One notebook of one student's submission: its result (read by read_summary, judged by attention)."""
    notebook: str
    handed_in: bool
    result: object = None  # its classroom.grading.result.Result, None if there is none (or it is unreadable)
    stale: str = None      # why its grading no longer holds (classroom.grading.record), None if it holds


@dataclass(frozen=True)
class Reason:
    """Why a submission needs an instructor's look: a few words, the detail, and the cells or checks concerned."""
    kind: str
    detail: str
    where: tuple = ()

    def text(self):
        shown = ", ".join(self.where[:4]) + (f" and {len(self.where) - 4} more" if len(self.where) > 4 else "")
        return f"{self.kind}: {self.detail}" + (f" [{shown}]" if shown else "")


@dataclass(frozen=True)
class Student:
    id: str
    raw_score: float
    penalty: float
    max_score: float
    notebooks: dict         # {notebook: score}
    checks: dict            # {(notebook, grade_id): score}
    handed_in: frozenset    # the notebooks handed in
    messages: dict          # {(notebook, grade_id): the message the grader wrote for that check}
    reasons: tuple = ()     # (Reason, ...): empty when the submission needs no look
    notes: tuple = ()       # the grader's notes for the student (a renamed notebook, files left out), as written

    @property
    def score(self):
        """The score `nbgrader export` writes: the raw score less the late penalty, never below 0."""
        return max(self.raw_score - self.penalty, 0.0)


NO_MESSAGE = "no message (the grading result records none)"


@dataclass(frozen=True)
class CheckResult:
    """How the class did on one check, counting only the students who handed in its notebook."""
    check: Check
    failing: int
    handed_in: int
    messages: Counter  # {message: how many of the failing students saw it}

    @property
    def share_failing(self):
        return self.failing / self.handed_in if self.handed_in else 0.0

    def common_messages(self, shown):
        """([(message, count)] of the `shown` most common, count of the other students, number of other messages)."""
        ranked = self.messages.most_common()
        return ranked[:shown], sum(n for _, n in ranked[shown:]), len(ranked[shown:])


@dataclass(frozen=True)
class Summary:
    assignment: str
    course_id: str
    max_score: float
    notebooks: tuple  # ((name, max score), ...), the assignment's own notebook first
    checks: tuple     # (Check, ...) in notebook order
    students: tuple   # (Student, ...) by id
    ungraded: tuple = ()  # ((student, why), ...): collected, never graded (not in the gradebook)
    dropped: tuple = ()   # (student, ...): collected, but dropped from the course (`make drop`): never graded
    absent: tuple = ()    # (student, ...): on the gradebook's roster, nothing handed in (rows of `students`, 0)

    @property
    def histogram(self):
        """[(total score, number of students)], lowest score first."""
        return sorted(Counter(s.score for s in self.students).items())

    @property
    def mean(self):
        return mean(s.score for s in self.students)

    @property
    def median(self):
        return median(s.score for s in self.students)

    @property
    def attention(self):
        return [s for s in self.students if s.reasons]

    @property
    def results(self):
        """[CheckResult] for every check, in the order of `checks`."""
        out = []
        for check in self.checks:
            took = [s for s in self.students if check.notebook in s.handed_in and check.key in s.checks]
            failed = [s for s in took if s.checks[check.key] < check.points]
            out.append(CheckResult(check, len(failed), len(took),
                                   Counter(s.messages.get(check.key, NO_MESSAGE) for s in failed)))
        return out
