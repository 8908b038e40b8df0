"""What the instructor decided, and when work is due: kept where every later collect and grading reads it.

  store     the course's decisions.json: one student's extension, students dropped for good, and the graded quiz's
            key once handed out (`python -m classroom.decisions`: make extension, make drop, make decisions);
  dates     every due date the course accepts is read right or refused (an offset such as -0500, a zone name such as
            America/New_York, UTC), at the one place nbgrader reads them (nbgrader.utils.parse_utc, replaced from the plugin selection
            by classroom.nbgrader_seams);
  penalty   the late penalty of a committed grading, computed as nbgrader computes it, on the whole score the
            gradebook then holds (automatic, manual and extra credit), by the configured plugin;
  quiz_key  once the graded quiz is handed out, the key it is graded with is the one the students fetched.

It lives apart from classroom/quiz/ (the quiz's authoring, which a class's shared environment on a hub leaves out,
since it pairs each statement with its true and false wording): grading needs the key lock, never the authoring.
"""
