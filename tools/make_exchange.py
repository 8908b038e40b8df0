"""`make exchange`: create nbgrader's exchange folder, at the path this course's configuration gives it.

The path is `c.Exchange.root` as nbgrader itself reads it (nbgrader_config.py here, ~/.jupyter/nbgrader_config.py,
...), by default nbgrader's own /usr/local/share/nbgrader/exchange. The folder is made as nbgrader's
`release_assignment` would make it (read, write and enter for everyone: students write their hand-ins into it),
plus the sticky bit of /tmp, so that nobody but its owner can rename or delete what another account put there (a
student cannot move the instructor's course folder away). nbgrader only checks the lower nine bits, so it keeps the
sticky bit. A folder under /usr/local needs root: run as anyone else, this prints the one `sudo` command that does it.
Release then makes <root>/<course id>/outbound (0755) and inbound (2733) itself. INSTRUCTORS.md, "One machine".
"""
import argparse
import os
import shlex
import stat
import sys

MODE = 0o1777  # rwx for everyone (nbgrader's 0777) plus the sticky bit


def exchange_root():
    """The exchange root nbgrader uses when run from the current folder."""
    from nbgrader.apps.baseapp import NbGrader
    from nbgrader.exchange.default.exchange import Exchange

    app = NbGrader()
    app.load_config_file()
    return Exchange(config=app.config).root


def make_exchange(root):
    """Create `root` with MODE, or give it MODE; return a message for a human when that needs another account."""
    try:
        os.makedirs(root, exist_ok=True)
        if stat.S_IMODE(os.stat(root).st_mode) != MODE:
            os.chmod(root, MODE)
    except PermissionError:
        quoted = shlex.quote(root)
        command = (f"sudo chmod 1777 {quoted}" if os.path.isdir(root) else f"sudo install -d -m 1777 {quoted}")
        return (f"The exchange {root} needs an administrator to create it (or to set its permissions). Run:\n"
                f"    {command}\nor set c.Exchange.root in nbgrader_config.py to a folder you may create.")
    return None


def main(argv=None):
    argparse.ArgumentParser(description="Create nbgrader's exchange folder at the path this course's configuration "
                            "gives it (c.Exchange.root).").parse_args(argv)  # no options: --help only
    root = exchange_root()
    refused = make_exchange(root)
    if refused:
        print(refused, file=sys.stderr)
        return 1
    print(f"The exchange {root} is ready (mode {oct(MODE)[2:]}).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
