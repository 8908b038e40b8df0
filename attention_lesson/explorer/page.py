"""The divisor explorer as one self-contained HTML page: no kernel, no server, nothing loaded from outside.

    .venv/bin/python -m attention_lesson.explorer.page [--out build/divisor-explorer.html] [--seeds 20]
    (or: make explore-page)

The page holds the explorer's view (attention_lesson.explorer.view.stand_in_html) with the rows of seeds 0, 1, ...
embedded; a student opens it from disk, and the new-row button goes through those seeds in turn.
"""
import argparse
from pathlib import Path

from markupsafe import Markup

from attention_lesson.explorer.model import DEFAULT_SETTINGS
from attention_lesson.explorer.view import HTML_TEMPLATES, stand_in_html

# How many seeds' rows the page holds by default, and where make explore-page writes it.
PAGE_SEEDS = 20
PAGE = Path("build") / "divisor-explorer.html"


def page_html(seeds=PAGE_SEEDS):
    """One self-contained HTML page with the explorer and the rows of seeds 0 to `seeds` - 1 embedded."""
    return HTML_TEMPLATES.get_template("page.html.j2").render(
        stand_in=Markup(stand_in_html({**DEFAULT_SETTINGS, "seed": 0}, seeds)), last=seeds - 1, count=seeds)


def main(argv=None):
    parser = argparse.ArgumentParser(description="Write the divisor explorer as one self-contained HTML page.")
    parser.add_argument("--out", type=Path, default=PAGE, help=f"where to write the page (default: {PAGE})")
    parser.add_argument("--seeds", type=int, default=PAGE_SEEDS,
                        help=f"embed the rows of seeds 0, 1, ..., SEEDS-1 (default: {PAGE_SEEDS})")
    args = parser.parse_args(argv)
    try:
        page = page_html(args.seeds)
    except ValueError as exc:
        parser.error(f"--seeds: {exc}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(page, encoding="utf-8")
    print(f"wrote {args.out} (the explorer with the rows of seeds 0 to {args.seeds - 1}); open it in a browser")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
