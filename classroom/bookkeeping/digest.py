"""The short digest every record of the course is made of: the grading record's digests (classroom.grading.record)
and the graded quiz's key (classroom.decisions.quiz_key). Its value is kept in the course's files, so it never
changes: a changed digest would make every recorded grading look stale and every handed-out quiz look replaced."""
import hashlib


def digest(parts):
    """A short hex digest of a sequence of values (bytes as they are, anything else by its repr)."""
    hasher = hashlib.sha256()
    for part in parts:
        hasher.update(part if isinstance(part, bytes) else repr(part).encode())
        hasher.update(b"\0")
    return hasher.hexdigest()[:32]
