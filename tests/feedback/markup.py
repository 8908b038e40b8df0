"""Reading the HTML a page generator wrote, for the tests of what it lets through (tests/feedback/test_inert_content.py,
tests/feedback/test_feedback_math.py)."""
from html.parser import HTMLParser


class Tags(HTMLParser):
    """Every tag of a piece of HTML with its attributes, in order: `Tags(html).found` = [(tag, {name: value})]."""

    def __init__(self, html):
        super().__init__()
        self.found = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        self.found.append((tag, dict(attrs)))
