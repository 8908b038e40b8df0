"""The self-check widgets of notebooks/05-test-your-intuition.ipynb: a thin layer over attention_lesson.quiz.bank.

Each question is shown twice over: as Markdown (readable wherever the notebook is opened, kernel or not)
and as an answer box with a Check button (live in JupyterLab). All judging is done by bank.check; the
feedback is rendered by Jinja2 with autoescaping (explanations are trusted Markdown with maths, kept as they are).
"""
import ipywidgets as widgets
import jinja2
from IPython.display import Markdown, display

from attention_lesson.quiz import bank

OFFLINE_TEXT = "[answer box for {id}: open this notebook in JupyterLab and run the cell to check your answer]"
_FEEDBACK = jinja2.Environment(autoescape=True).from_string(
    "{% if verdict is none %}<p>{{ message }}</p>"
    "{% else %}<p><b>{{ '✔ Right.' if verdict.correct else '✘ Not yet: read why, then try again.' }}</b></p>"
    "<ul>{% for label, text in verdict.explanations %}"
    "<li>{% if letters %}<b>{{ label }}</b>: {% endif %}{{ text | safe }}</li>{% endfor %}</ul>{% endif %}")


class NumberField(widgets.Text):
    """The answer box of a number question."""

    def __init__(self, question):
        super().__init__(placeholder="type a number", description="Your answer:",
                         style={"description_width": "initial"})

    def answer(self):
        """The number typed (a decimal comma is read as a point), the text itself if it is not one, or None."""
        text = self.value.strip().replace(",", ".")
        if not text:
            return None
        try:
            return float(text)
        except ValueError:
            return text  # bank.check explains that a number is wanted


class LetterChoice(widgets.RadioButtons):
    """One radio button per option, for a question with one right letter."""

    def __init__(self, question):
        super().__init__(options=list(question.letters), value=None, description="Your answer:",
                         style={"description_width": "initial"})

    def answer(self):
        """The letter chosen, or None."""
        return self.value


class LetterBoxes(widgets.HBox):
    """One check box per option, for a question where every true option must be chosen."""

    def __init__(self, question):
        super().__init__([widgets.Checkbox(value=False, description=f"{letter})", indent=False)
                          for letter in question.letters])

    def answer(self):
        """The set of letters ticked, or None when none is."""
        return {box.description.rstrip(")") for box in self.children if box.value} or None


# One kind of answer box per kind of question; each has answer() -> the answer as bank.check takes it, or None.
ANSWER_BOXES = {"number": NumberField, "single": LetterChoice, "multi": LetterBoxes}


class QuestionBox(widgets.VBox):
    """The answer box of one question (`control`, see ANSWER_BOXES), a Check button, and the feedback area."""

    def __init__(self, question):
        self.question = question
        self.control = ANSWER_BOXES[question.kind](question)
        self.button = widgets.Button(description="Check", button_style="primary", tooltip="check your answer")
        self.feedback = widgets.HTMLMath(value="")
        self.button.on_click(lambda _: self.check())
        super().__init__(children=[self.control, self.button, self.feedback])

    def answer(self):
        """The current answer in the form bank.check expects, or None when nothing is given yet."""
        return self.control.answer()

    def check(self):
        """Judge the current answer and show the verdict with its explanations; return the verdict (or None)."""
        answer = self.answer()
        if answer is None:
            self.feedback.value = _FEEDBACK.render(verdict=None, message="Give an answer first, then press Check.")
            return None
        try:
            verdict = bank.check(self.question, answer)
        except bank.AnswerFormatError as error:
            self.feedback.value = _FEEDBACK.render(verdict=None, message=str(error))
            return None
        self.feedback.value = _FEEDBACK.render(verdict=verdict, letters=self.question.kind != "number")
        return verdict

    def _repr_mimebundle_(self, **kwargs):
        bundle = super()._repr_mimebundle_(**kwargs)
        bundle["text/plain"] = OFFLINE_TEXT.format(id=self.question.id)
        return bundle


def ask(number, questions=None):
    """Show question `number` (1-based, in the bank's order) as Markdown, then its answer box.

    Returns nothing, so that a notebook cell `ask(1)` shows the question once: nbval runs cells without
    storing history, and there a trailing `;` does not stop a returned object from being shown again.
    """
    questions = bank.load_bank() if questions is None else questions
    ordered = list(questions.values())
    if not isinstance(number, int) or not 1 <= number <= len(ordered):
        raise ValueError(f"number must be a question number from 1 to {len(ordered)}; got {number!r}")
    question = ordered[number - 1]
    display(Markdown(bank.question_markdown(question, heading=f"Question {number}")))
    display(QuestionBox(question))
