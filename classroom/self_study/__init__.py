"""Studying on your own: the exercise in the learner's own folder, graded by the grader a class gets.

`make exercise` (exercise.py) copies the student version of the assignment, release/<assignment>/, into
my-work/<assignment>/ (git-ignored), never over a file that is already there. `make check-exercise`
(grade_exercise.py) grades what is there with the class's own driver, `python -m classroom.autograde`, in a private
course made for that one run and removed after it, then writes the class's feedback pages to my-work/feedback/ and
prints the score of each part.

The reference solution exists only in source/: my-work/ receives copies of release/ only; the private course reads
source/ where it is (its CourseDirectory.source_directory points there) and copies none of it; and the feedback page,
after full marks only, names the path of the reference in source/, never any of its content (the template
classroom/feedback/templates/self_study).
"""
import os

WORK = "my-work"       # the learner's folder, at the repository's root (git-ignored)
STUDENT = "learner"    # the learner's id in the private course
ASSIGNMENT = "score_gradient"


def exercise_folder(work, assignment):
    """Where the learner's copy of `assignment` is."""
    return os.path.join(work, assignment)


def feedback_folder(work):
    """Where `make check-exercise` writes the feedback pages, one per notebook."""
    return os.path.join(work, "feedback")


def released_folder(coursedir, assignment):
    """The student version of `assignment` in the course (release/<assignment>/), as the course's configuration
    names it."""
    return os.path.normpath(coursedir.format_path(coursedir.release_directory, ".", assignment))


def released_notebooks(coursedir, assignment):
    """The names (without .ipynb) of the assignment's notebooks, as released, its own notebook first."""
    folder = released_folder(coursedir, assignment)
    names = sorted(name[:-len(".ipynb")] for name in os.listdir(folder) if name.endswith(".ipynb"))
    return sorted(names, key=lambda name: name != assignment)
