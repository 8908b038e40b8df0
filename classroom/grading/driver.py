"""What one `make autograde` run does once its command line is read (classroom.autograde): every submission whose
grading is missing or out of date is graded, each one as a transaction.

What is graded: every submission in submitted/ (or the ones --student and --notebook select, nbgrader's own options)
whose recorded grading does not hold any more (classroom.grading.record): never graded, handed in again, graded
under another version of the assignment, left unfinished by a killed run, or no longer matching the gradebook.
--force re-grades the selection anyway. Nothing outside the selection is read or written. A --student or --notebook
that selects nothing stops the run, naming the nearest real one. What the instructor decided (classroom.decisions)
is obeyed: a dropped student is never graded, an extension is this student's due date. Grading refuses while the
gradebook's checks are not source/'s (a restored backup, a check changed and not released:
classroom.grading.source_match). Once the graded quiz is handed out, grading refuses a key other than the handed-out
one (classroom.decisions.quiz_key).
How: each submission is graded by nbgrader's own pipeline (nbgrader_config.py) on a staging copy
(classroom.grading.staging, which writes each notebook's result, classroom.grading.result), then committed
(classroom.grading.commit): the gradebook in one transaction, then the autograded folder swapped in whole. A run
killed at any moment leaves nothing that a later run takes for finished; one whose assignment changes in the gradebook
meanwhile (`make release`) stops at the next commit and says so. Grading by hand is kept unless the work itself was
handed in again changed; the run names whatever it cleared.
Where (classroom.grading.pool): --jobs N stages N submissions at once in processes of this machine (1, the default
here, grades in this process; `make autograde` passes the number of cores), --scheduler on the workers of a Dask
cluster; either way only this process writes the gradebook, one submission at a time. A progress bar
(classroom.grading.progress) shows on a terminal.

`run` does it under the course's lock (classroom.bookkeeping.lock), after `prepare` (the assignment, the selection, the
decisions, the quiz key: Refused, exit 2, when grading may not start) and `plan` (what to grade, and why); `grade`
stages every job with the graders and commits each one here; `say` is the one voice of the run on stderr. SIGHUP and
SIGTERM stop it as Ctrl-C does (`stop`: Interrupted), the submission being graded keeping its previous state.
"""
import fnmatch
import os
import signal
import sys

from .. import course, intake
from ..bookkeeping import lock
from ..bookkeeping.digest import digest
from ..decisions import quiz_key
from ..decisions import store as decisions
from ..wording import did_you_mean
from . import commit, design, pool, progress, record, result, source_match, staging

TAG = "[classroom.autograde]"


class Interrupted(BaseException):
    """SIGHUP or SIGTERM: stop like Ctrl-C (the submission being graded keeps its previous state)."""


class Refused(Exception):
    """Grading may not start (exit 2); str() says why and what to do."""


SIGNALLED = []  # the signals that asked this run to stop, in case the exception their handler raised was lost


def stop(signum, frame):
    SIGNALLED.append(signum)
    raise KeyboardInterrupt() if signum == signal.SIGINT else Interrupted(signal.Signals(signum).name)


def stop_if_signalled():
    if SIGNALLED:
        stop(SIGNALLED[0], None)


def say(message):
    print(f"{TAG} {message}", file=sys.stderr, flush=True)


def require_selection(coursedir, assignment, versions, collected, dropped):
    """Refused when --notebook or --student selects nothing (a typo must not end in "0 graded now"), or only
    students who were dropped."""
    pattern = coursedir.notebook_id or "*"
    if not any(fnmatch.fnmatch(name, pattern) for name in versions):
        raise Refused(f"{assignment} has no notebook {pattern!r}{did_you_mean(pattern, versions, cutoff=0.5)}; its notebooks are "
                      + ", ".join(versions) + " (give the name without .ipynb): nothing was graded")
    if coursedir.student_id and coursedir.student_id != "*":
        chosen = [s for s in collected if fnmatch.fnmatch(s, coursedir.student_id)]
        if not chosen:
            raise Refused(f"{coursedir.submitted_directory}/ holds no submission of {assignment} by "
                          f"{coursedir.student_id!r}{did_you_mean(coursedir.student_id, collected, cutoff=0.5)}: "
                          "nothing was graded (collect it first, or check the name)")
        if set(chosen) <= dropped:
            raise Refused(f"{', '.join(chosen)} was dropped from the course (`make decisions` lists who): nothing was "
                          "graded. To grade them again, first `make drop STUDENT=... UNDO=yes`")


def plan(app, gb, assignment, versions, data):
    """([(Job, why)], up-to-date student count, [(student, refusal)], [dropped student]) for the submissions the
    command selects; `versions` is record.versions of the assignment, `data` the course's decisions."""
    coursedir = app.coursedir
    force = any(app.config[section].get("force") for section in ("Autograde", "BaseConverter") if section in app.config)
    selected = [n for n in versions if fnmatch.fnmatch(n, coursedir.notebook_id or "*")]
    class_due = gb.find_assignment(assignment).duedate
    whole = digest(sorted(versions.items()))
    jobs, current, refused, skipped = [], 0, [], []
    for student, folder in course.submitted(coursedir, assignment).items():
        try:
            intake.require_plain_id(student)
        except intake.BadSubmission as exc:
            refused.append((student, str(exc)))
            continue
        if student in decisions.dropped(data):
            skipped.append(student)
            continue
        due = decisions.due_date(data, assignment, student, class_due)
        own = versions if due == class_due else record.versions(gb, assignment, due)
        state = record.inspect(gb, own, assignment, student, folder,
                               course.autograded(coursedir, student, assignment), selected)
        todo = selected if force else [n for n in selected if n in state.stale]
        if not todo:
            current += 1
            continue
        fresh = {n: record.content_changed(state.previous, n, state.contents[n]) for n in todo}
        job = staging.Job(coursedir.root, coursedir.course_id, assignment, student, folder, state.graded, todo,
                          state.handed, state.expected, fresh, state.previous, app.config, contents=state.contents,
                          due=None if due == class_due else due, assignment_version=whole)
        jobs.append((job, "; ".join(f"{n}: {state.stale.get(n, 'asked for with --force')}" for n in todo)))
    return jobs, current, refused, skipped


def _report(job, staged, failed, shown):
    """Tell what a committed grading left unfinished or scored 0 without running it, as its results say."""
    for name, found in staged.results.items():
        if found.status == result.GRADER_FAILED:
            failed.append((job.student, f"the grader failed on {name}.ipynb ({found.why})"))
            shown.say(f"{job.student}/{name}: the grader failed ({found.why}); recorded 0 for now, flagged "
                      "for grading by hand, and the next run tries again")
        elif found.status == result.MISNAMED:
            shown.say(f"{job.student}/{name}: not graded automatically, flagged for grading by hand: {name}.ipynb "
                      "is not in the submission, which holds " + ", ".join(found.suspects) + " (look at them in "
                      "submitted/, grade by hand in the formgrader, or rename the right one and run this again)")
        elif found.status != result.GRADED:
            shown.say(f"{job.student}/{name}: scored 0: {found.why}")
        other_quiz = [g for g in found.repairs.earlier if g.startswith(quiz_key.PREFIX)]
        if other_quiz:
            shown.say(f"{job.student}/{name}: handed in with other quiz questions than the gradebook grades (the "
                      f"checks {', '.join(other_quiz)} were put back): a variant handed out before the quiz was "
                      "replaced? Its answers were graded with the new variant's key: look at it, grade it by hand")
        if found.cleared:
            shown.say(f"{job.student}/{name}: handed in again with changed work, so the grading by hand of the "
                      f"earlier work was cleared: {'; '.join(found.cleared)}")


def grade(app, assignment, jobs, work, template, graders):
    """Stage every job with `graders` (a classroom.grading.pool Stager) under `work`, from the gradebook `template`
    (made here unless it exists), and commit each one here, one at a time; ([(student, why)] for those the grader
    failed on, the number committed, why the run stopped early or None)."""
    coursedir = app.coursedir
    try:
        if not os.path.exists(template):
            commit.make_template(coursedir.db_url, coursedir.course_id, assignment, template)
    except Exception as exc:  # nothing is graded without it; nothing has been touched yet
        why = str(staging.grader_failure(exc, "preparing the staging gradebook"))
        say(f"nobody was graded: {why}")
        return [(job.student, why) for job, _ in jobs], 0, None
    failed, done = [], 0
    with progress.Progress(len(jobs), say) as shown:
        if shown.bar is not None:  # nbgrader's step-by-step lines would push the bar away; warnings still show
            app.log.setLevel("WARNING")
        for event, job, why, *outcome in graders.run(jobs, template, work, stop_if_signalled):
            stop_if_signalled()
            if event == "started":
                shown.started(job.student, why)
                continue
            staged = outcome[0]
            if not isinstance(staged, staging.GraderFailure):
                try:
                    commit.commit(job, staged, coursedir.db_url)
                    done += 1
                except commit.AssignmentChanged as exc:
                    return failed, done, str(exc)
                except Exception as exc:
                    staged = staging.grader_failure(exc, "recording the grades")
            if isinstance(staged, staging.GraderFailure):
                failed.append((job.student, str(staged)))
                shown.say(f"{job.student}: NOT graded: {staged}. Its previous state is kept; the next run "
                          "tries again.")
            else:
                _report(job, staged, failed, shown)
            shown.finished(any(student == job.student for student, _ in failed))
    return failed, done, None


def prepare(app, gb, assignment):
    """(versions, [(Job, why)], up-to-date count, [(student, refusal)], [dropped]) under the course's lock;
    Refused when grading may not start."""
    from nbgrader.api import MissingEntry

    coursedir = app.coursedir
    try:
        gb.find_assignment(assignment)
    except MissingEntry:
        raise Refused(f"the gradebook has no assignment {assignment!r}: run `make release` (nbgrader "
                      "generate_assignment) first") from None
    try:
        data = decisions.read(coursedir.root)
    except decisions.DecisionError as exc:
        raise Refused(str(exc)) from None
    versions = record.versions(gb, assignment)
    collected = course.submitted(coursedir, assignment, "*")
    require_selection(coursedir, assignment, versions, collected, decisions.dropped(data))
    if collected:
        other_checks = source_match.refusal(coursedir, gb, assignment)
        if other_checks:
            raise Refused(other_checks)
        refused_key = quiz_key.recorded_or_refused(coursedir, gb, assignment)
        if refused_key:
            raise Refused(refused_key)
    return (versions, *plan(app, gb, assignment, versions, data))


def totals(gb, assignment, students):
    """{student: (total score of `assignment` in the gradebook, seconds late, late penalty)}, None: no submission."""
    from nbgrader.api import MissingEntry

    found = {}
    for student in students:
        try:
            sub = gb.find_submission(assignment, student)
            found[student] = (sub.score, sub.total_seconds_late or 0, sub.late_submission_penalty or 0)
        except MissingEntry:
            found[student] = None
    return found


def score_changes(before, after, same_work=()):
    """The lines that name every student whose total score this run changed, from what to what, and whose work this
    run made late (`same_work`: the students whose graded work did not change, only when it was handed in)."""
    def shown(score):
        return "no score" if score is None else f"{score:g}"

    scores = {student: (found or (None,))[0] for student, found in after.items()}
    changed = [(student, before[student][0], scores.get(student)) for student in sorted(before)
               if before[student] is not None and scores.get(student) != before[student][0]]
    late = [(student, *after[student][1:]) for student in sorted(before) if (after.get(student) or (0, 0))[1] > 0
            and not (before[student] or (0, 0))[1]]
    return ([f"{len(changed)} {'score' if len(changed) == 1 else 'scores'} changed by this run (from the score "
             "before it):"] if changed else []) + [f"  {student}: {shown(old)} -> {shown(new)}"
                                                   for student, old, new in changed] + [
        f"{student}: late now, handed in {seconds / 3600:.2f} h after the due date (late penalty {fine:g} points)"
        + (": handed in again with the same work, and the latest hand-in's time is the one graded" if student in
           same_work else "") for student, seconds, fine in late]


def run(app, assignment, wait, options):
    from nbgrader.api import Gradebook

    coursedir = app.coursedir
    work = lock.work_folder(coursedir.root)
    with lock.hold(work, wait=wait, tell=say):
        staging_dir = os.path.join(work, "staging")
        commit.clean_leftovers(staging_dir, course.autograded(coursedir, "*", assignment))
        os.makedirs(staging_dir, exist_ok=True)
        with Gradebook(coursedir.db_url, coursedir.course_id) as gb:
            versions, jobs, current, refused, dropped = prepare(app, gb, assignment)
            say(f"{assignment} is graded with {design.of_assignment(gb, assignment, app.config)}")
            before = totals(gb, assignment, [job.student for job, _ in jobs])
        for student, why in refused:
            say(f"{student}: refused, not graded: {why}")
        # the template depends only on the assignment's version: kept between runs, made again when it changes
        template = os.path.join(work, f"template-{assignment}-{digest(sorted(versions.items()))}.db")
        failed, done, changed = [], 0, None
        if jobs:
            with pool.stager(app.log, **options) as graders:
                failed, done, changed = grade(app, assignment, jobs, staging_dir, template, graders)
        commit.clean_leftovers(staging_dir, course.autograded(coursedir, "*", assignment))
        with Gradebook(coursedir.db_url, coursedir.course_id) as gb:
            after = totals(gb, assignment, list(before))
    same_work = {job.student for job, _ in jobs if job.previous and not any(job.fresh.values())}
    for line in score_changes(before, after, same_work):
        say(line)
    if changed:
        say(f"stopped: {changed}. The {done} submissions committed before that were graded with the assignment as it "
            "was when this run started (the next run grades them again); the others were not graded. Run `make "
            "autograde` again.")
        return 1
    failures = len({s for s, _ in failed})
    say(f"{len(jobs) - failures} graded now, {current} already up to date, {failures} failed, {len(refused)} refused"
        + (f", {len(dropped)} dropped and not graded ({', '.join(dropped)}: `make decisions` lists them)"
           if dropped else ""))
    if failed or refused:
        say("Not every submission has a current grade: fix what is said above and run `make autograde` again "
            "(what is finished is not graded twice).")
        return 1
    return 0
