"""Due dates, extensions and late penalties: when work is due, for the class and for one student, and what lateness
costs. nbgrader keeps the class's due date in the gradebook and computes the penalty with its late-submission plugin;
this package is where the course meets it:

  dates       every due date the course accepts is read right or refused (an offset such as -0500, a zone name such as
              America/New_York, UTC), at the one place nbgrader reads them (nbgrader.utils.parse_utc, replaced by
              `dates.install()` from nbgrader_config.py);
  extensions  one student's own due date, recorded by `make extension` in the course's decisions (classroom.decisions),
              which grading reads: the staging gradebook gets it, nbgrader's SubmittedAssignment.extension mirrors it;
  penalty     the late penalty of a committed grading, computed as nbgrader computes it, on the whole score the
              gradebook then holds (automatic, manual and extra credit), by the configured plugin.
"""
