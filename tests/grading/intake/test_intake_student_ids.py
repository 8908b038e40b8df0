"""classroom.intake: the ids are plain: a plain student id is accepted, and any other is refused saying what was
wrong and what to do."""
import pytest

from classroom.intake import BadSubmission, require_plain_id


@pytest.mark.parametrize("student_id", ["alice", "Bob_2", "c.d-e", "s0", "x.y.z", "a-"])
def test_a_plain_student_id_is_accepted(student_id):
    require_plain_id(student_id)


@pytest.mark.parametrize("student_id, named", [
    ("c15eve,,,,21.0", "','"), ('=HYPERLINK("x")', "'='"), ("+1", "'+'"), ("@SUM(A1)", "'@'"), ("a b", "' '"),
    ("a/b", "'/'"), ("..", "'..'"), (".", "'.'"), ("-rf", "starts with '-'"), ("", "empty"), ("a\nb", r"'\n'"),
    ("\tx", r"'\t'"), ("é", "'é'"), ("a+b", "'+'"), ("x;y", "';'"), ('a"b', "'\"'")])
def test_a_student_id_that_is_not_plain_is_refused_saying_why_and_what_to_do(student_id, named):
    with pytest.raises(BadSubmission) as refused:
        require_plain_id(student_id)
    message = str(refused.value)
    assert named in message and "letters, digits" in message and "collect again" in message
    assert isinstance(refused.value, ValueError)
