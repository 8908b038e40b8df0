"""The command line the class-grading benches share: how many students, and how many alternated runs of each way."""
import argparse


def students_and_runs(doc, students=6, runs=3):
    """{"n": students, "runs": runs} from the command line of a bench whose docstring is `doc`."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("n", nargs="?", type=int, default=students,
                        help="students in the course (default: %(default)s)")
    parser.add_argument("runs", nargs="?", type=int, default=runs,
                        help="runs of each way, the best kept (default: %(default)s)")
    return vars(parser.parse_args())
