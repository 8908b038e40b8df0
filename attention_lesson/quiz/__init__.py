"""The five self-check questions of notebooks/05-test-your-intuition.ipynb, also graded in the assignment.

* bank: the sealed question bank (bank.json beside it): loading, judging and explaining answers, sealing;
* widgets: the answer boxes of the self-check notebook (`ask`), a thin ipywidgets layer over bank.

tools/quiz_bank.py unseals and seals the bank and builds the graded notebook from it.
"""
