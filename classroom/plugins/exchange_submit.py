"""`nbgrader submit` (and the Submit button of the Assignments tab) leaving a hand-in that no classmate can change.

nbgrader's submit copies the student's folder into the exchange's inbound/ and then makes the copy 0777, "so the
instructor can delete later": any account that learns its name may add, replace or delete files in it before
collect. SafeSubmit, enabled for every account of a class (deploy/jupyterhub/etc/jupyter/nbgrader_config.py, and
nbgrader_config.py for one machine) with `c.ExchangeFactory.submit = "classroom.plugins.exchange_submit.SafeSubmit"`,
makes the same copy, the same timestamp.txt and submission_secret.txt (nbgrader's feedback finds the student's page
by that secret) and the same copy in the student's cache, and leaves the hand-in writable by its owner only and
readable by the exchange's group (the instructors: inbound/ is setgid), never by other students: folders 0750,
files 0640. The time and the author collect believes are not these files' (classroom.plugins.exchange_collect).
"""
import os
import secrets

from nbgrader.exchange.default.submit import ExchangeSubmit

FOLDER_MODE, FILE_MODE = 0o750, 0o640


class SafeSubmit(ExchangeSubmit):
    def copy_files(self):
        self.init_release()
        self.check_filename_diff()
        secret = secrets.token_hex(64)
        dest = os.path.join(self.inbound_path, self.assignment_filename)
        cached = self.assignment_filename.rsplit("+", 1)[0] if self.add_random_string else self.assignment_filename
        cache = os.path.join(self.cache_path, cached)
        self.log.info("Source: %s", self.src_path)
        self.log.info("Destination: %s", dest)
        # The student's own copy first, with nbgrader's two files; then the hand-in copied whole from it. Every file
        # of the hand-in is so made while its folder still has the setgid bit it takes from inbound/, and belongs to
        # the exchange's group (the instructors): nbgrader's copy gives the folder the student's mode at its end.
        os.makedirs(self.cache_path, exist_ok=True)
        self.do_copy(self.src_path, cache)
        for name, text in (("timestamp.txt", self.timestamp), ("submission_secret.txt", secret)):
            with open(os.path.join(cache, name), "w") as file:
                file.write(text)
        self.do_copy(cache, dest)
        self.set_perms(dest, fileperms=FILE_MODE, dirperms=FOLDER_MODE)
        self.log.info("Submitted as: %s %s %s", self.coursedir.course_id, self.coursedir.assignment_id,
                      self.timestamp)
