"""The report's HTML page, from a Summary, through the Jinja2 template templates/report.html.j2.

Autoescape is on and nothing is marked safe: student ids and failure messages come from students' work, so every
value reaches the page escaped. The figure is embedded as a data URI built here from the PNG's bytes (base64 needs
no escaping, and gets none it could be hurt by).
"""
import base64
from datetime import datetime
from pathlib import Path

from jinja2 import Environment, PackageLoader, StrictUndefined

from .. import atomic
from .figure import alt_text
from .model import number, percent

MESSAGES_SHOWN = 3  # most common failure messages listed per check


def environment():
    env = Environment(loader=PackageLoader("classroom.report", "templates"), autoescape=True,
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters.update(number=number, percent=percent)
    return env


def png_data_uri(png_path):
    return "data:image/png;base64," + base64.b64encode(Path(png_path).read_bytes()).decode("ascii")


def page(summary, png_path, csv_name, written=None):
    """The HTML page (a string) for `summary`, embedding the PNG at `png_path` and linking the CSV `csv_name`."""
    return environment().get_template("report.html.j2").render(
        summary=summary, results=summary.results, attention=summary.attention, alt=alt_text(summary),
        figure=png_data_uri(png_path), csv_name=csv_name, shown=MESSAGES_SHOWN,
        notebook_names=[name for name, _ in summary.notebooks],
        written=(written or datetime.now()).strftime("%Y-%m-%d %H:%M"))


def write_html(summary, path, png_path, csv_name):
    return Path(atomic.write_text(path, page(summary, png_path, csv_name)))
