"""What grading and the instructor's decisions both rest on, kept below both so that neither imports the other for
it: the course's lock (`lock`: one grading run, or one change of the decisions, at a time) and the digest every
grading record and quiz key is made of (`digest`)."""
