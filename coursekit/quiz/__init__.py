"""What the tests know of the quizzes: the right answers to a drawn quiz (answers) and a private statements file
written for a test (statements)."""
