"""StartTrustedGrades: starts TrustedGrades' work (the grading child, every check) in a thread of this process, before
the display run, so that the two run at once; TrustedGrades, after the display run, takes the verdicts and writes
them. Nothing the display run does can reach the verdicts: they come from the gradebook's checks and the student's
answer cells as handed in, and the time limits are CPU time of each process, which running side by side does not
change. Without it, TrustedGrades does the same work itself, after the display run."""
from nbgrader.preprocessors import NbGraderPreprocessor

from ..grading import design
from .trusted_grades import RUNNING, TrustedGrades


class StartTrustedGrades(NbGraderPreprocessor):
    """Begin deciding the grade cells while the rest of the autograde pipeline goes on."""

    def preprocess(self, nb, resources):
        if design.of_resources(resources, self).name != design.TRUSTED:
            return nb, resources
        resources[RUNNING] = TrustedGrades(parent=self.parent, config=self.config, log=self.log).start(nb, resources)
        return nb, resources
