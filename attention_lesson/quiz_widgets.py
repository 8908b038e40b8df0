"""The self-check widgets of notebooks/05-test-your-intuition.ipynb: a thin layer over attention_lesson.quiz.

Each question is shown twice over: as Markdown (readable wherever the notebook is opened, kernel or not)
and as an answer box with a Check button (live in JupyterLab). All judging is done by quiz.check.
"""
import html

import ipywidgets as widgets
from IPython.display import Markdown, display

from attention_lesson import quiz

OFFLINE_TEXT = "[answer box for {id}: open this notebook in JupyterLab and run the cell to check your answer]"


class QuestionBox(widgets.VBox):
    """Answer controls for one question, a Check button, and the feedback area."""

    def __init__(self, question):
        self.question = question
        if question.kind == "number":
            self.control = widgets.Text(placeholder="type a number", description="Your answer:",
                                        style={"description_width": "initial"})
            controls = [self.control]
        elif question.kind == "single":
            self.control = widgets.RadioButtons(options=list(question.letters), value=None, description="Your answer:",
                                                style={"description_width": "initial"})
            controls = [self.control]
        else:
            self.control = [widgets.Checkbox(value=False, description=f"{letter})", indent=False)
                            for letter in question.letters]
            controls = [widgets.HBox(self.control)]
        self.button = widgets.Button(description="Check", button_style="primary", tooltip="check your answer")
        self.feedback = widgets.HTMLMath(value="")
        self.button.on_click(lambda _: self.check())
        super().__init__(children=[*controls, self.button, self.feedback])

    def answer(self):
        """The current answer in the form quiz.check expects, or None when nothing is given yet."""
        if self.question.kind == "number":
            text = self.control.value.strip().replace(",", ".")
            if not text:
                return None
            try:
                return float(text)
            except ValueError:
                return text  # quiz.check explains that a number is wanted
        if self.question.kind == "single":
            return self.control.value
        chosen = {box.description.rstrip(")") for box in self.control if box.value}
        return chosen or None

    def check(self):
        """Judge the current answer and show the verdict with its explanations; return the verdict (or None)."""
        answer = self.answer()
        if answer is None:
            self.feedback.value = "<p>Give an answer first, then press Check.</p>"
            return None
        try:
            verdict = quiz.check(self.question, answer)
        except quiz.AnswerFormatError as error:
            self.feedback.value = f"<p>{html.escape(str(error))}</p>"
            return None
        head = "&#10004; Right." if verdict.correct else "&#10008; Not yet: read why, then try again."
        items = "".join(f"<li><b>{html.escape(label)}</b>: {text}</li>" if self.question.kind != "number"
                        else f"<li>{text}</li>" for label, text in verdict.explanations)
        self.feedback.value = f"<p><b>{head}</b></p><ul>{items}</ul>"
        return verdict

    def _repr_mimebundle_(self, **kwargs):
        bundle = super()._repr_mimebundle_(**kwargs)
        bundle["text/plain"] = OFFLINE_TEXT.format(id=self.question.id)
        return bundle


def ask(number, bank=None):
    """Show question `number` (1-based, in the bank's order) as Markdown, then its answer box.

    Returns nothing, so that a notebook cell `ask(1)` shows the question once: nbval runs cells without
    storing history, and there a trailing `;` does not stop a returned object from being shown again.
    """
    bank = quiz.load_bank() if bank is None else bank
    questions = list(bank.values())
    if not isinstance(number, int) or not 1 <= number <= len(questions):
        raise ValueError(f"number must be a question number from 1 to {len(questions)}; got {number!r}")
    question = questions[number - 1]
    display(Markdown(quiz.question_markdown(question, heading=f"Question {number}")))
    display(QuestionBox(question))
