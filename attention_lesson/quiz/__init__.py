"""The five self-check questions of notebooks/05-test-your-intuition.ipynb, and the form of a quiz answer.

* bank: the question bank (bank.json beside it, its answers hashed out of sight, not secret): loading, judging and explaining answers, sealing;
* widgets: the answer boxes of the self-check notebook (`ask`), a thin ipywidgets layer over bank;
* answer_form: the form an answer must take, checked by the self-check and by the graded quiz's grade cells.

tools/quiz_bank.py unseals and seals the bank. The graded quiz (source/score_gradient/intuition_quiz.ipynb) asks a
parallel version of these questions, drawn by classroom.quiz.variants.
"""
