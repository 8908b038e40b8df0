# The two commands a newcomer needs: `make lab` and `make test`. Both build .venv/ first if it is missing
# (or older than the pins in requirements.txt), so a fresh clone needs nothing else.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
READY := $(VENV)/.ready
# JupyterLab refuses to start as root unless told it may (these machines and CI run as root).
ALLOW_ROOT := $(if $(filter 0,$(shell id -u)),--allow-root,)
# Extra arguments for JupyterLab, e.g. make lab LAB_ARGS="--no-browser --port=8899"
LAB_ARGS ?=
# nbgrader runs `alembic` from PATH (the formgrader's first page, and the instructors' targets below), hence the
# PATH prefix.
NBGRADER_ENV := PATH="$(abspath $(BIN)):$$PATH"
# The course's one command (classroom.app): the instructor's and the learner's targets below are aliases of its
# subcommands (tests/setup/test_classroom_app.py keeps the two lists in step).
CLASSROOM := $(NBGRADER_ENV) $(BIN)/classroom
# What JupyterLab opens first (and where its address without a path leads): lesson 01.
LAB_FIRST := /lab/tree/notebooks/01-why-divide-by-the-root-of-d_k.ipynb

.PHONY: lab lab-setup test test-fast nbgrader-contract notebooks bench explore explore-page clean-venv

# JupyterLab serves the repository, which is the nbgrader course directory, so that the formgrader's links to
# source/ and release/ open; it opens on the lessons. First the learner's copy of the exercise is made where it is
# missing (my-work/, never over their work), so that lesson 03's link to it opens.
# notebook_shim's server extension, which loads extensions written for the classic Notebook server (none here: the
# course's are Jupyter Server's), reads every trait of the server as it starts, the deprecated ServerApp.token too,
# and so warned "DeprecationWarning: ServerApp.token" on every start: it is left out.
LAB_WITHOUT := --ServerApp.jpserver_extensions notebook_shim=False
lab: $(READY)
	@test -e my-work/$(ASSIGNMENT)/$(ASSIGNMENT).ipynb || $(CLASSROOM) exercise $(ASSIGNMENT) --quiet
	$(NBGRADER_ENV) $(BIN)/jupyter lab --ServerApp.root_dir=. --LabApp.default_url=$(LAB_FIRST) $(ALLOW_ROOT) $(LAB_WITHOUT) \
	  $(LAB_ARGS)

# Every test, on every core (pytest-xdist), with one worker more than there are cores (TEST_WORKERS): part of the
# suite waits (kernels starting, browsers, servers, time limits) with a core idle, which the extra worker fills (on 2
# cores, 736 s of pytest against 777 s with two workers, and 781 s against 809 s, each pair on clean clones of one
# commit; `make test-fast`, which never waits, keeps one worker a core). --dist loadfile keeps a file's tests on one
# worker, as nbval needs for the cells of one notebook and the grading tests for the class they grade once per file;
# --no-loadscope-reorder hands the files out in the order tests/conftest.py gives (the longest first), where
# pytest-xdist would otherwise hand out first the files with the most tests (many quick ones), and start the minutes
# of nbgrader's contract or the hub class only after a few minutes.
# A test that needs a real part this machine lacks (browser, hub, postgres, dask, sandbox) is skipped, and the run's
# last line names the part and the command that installs it; PYTEST_ARGS='-m "not hub"' leaves a part out
# (coursekit/parts.py). Progress: each finished test on a line of its own, with the share of the run done so far
# (pytest-xdist's verbose report).
TEST_WORKERS ?= $(shell echo $$(( $$(nproc) + 1 )))
test: $(READY)
	$(COMPILE_OURS)
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder -v $(PYTEST_ARGS)

# The fast unit tests only (no kernel, nbgrader run, sandbox, browser or JupyterLab): run it on every change.
test-fast: $(READY)
	$(COMPILE_OURS)
	$(BIN)/python -m pytest tests -m "not integration" -n auto --dist loadfile $(PYTEST_ARGS)

# Our own packages' bytecode, brought up to date before the tests (only what changed is compiled again): where
# PYTHONDONTWRITEBYTECODE is set (this machine and CI set it), Python never writes it, and each of the suite's
# thousand-odd Python processes (graders, kernels, nbgrader and classroom commands) compiled the modules of ours it
# imports anew, 0.05 to 0.1 s of CPU time each. The site-packages' are written at install (--compile-bytecode).
COMPILE_OURS = $(BIN)/python -m compileall -q -j 0 attention_lesson classroom coursekit tools

# nbgrader's own tests of the apps our plugins plug into (collect, zip_collect, export, generate_feedback,
# release_feedback, autograde), run as they are with the plugin selection, classroom/plugins/nbgrader_config.py, on
# nbgrader's config path: a failure not named in docs/differences-from-nbgrader.md, or a test named there that
# passes, or one failing on something else than the page says, fails it (tools/nbgrader_contract.py); the tests that
# fail only on nbgrader's own set-up run again with it as nbgrader means it (tools/nbgrader_adapted.py) and must pass.
# `make test` runs it too (tests/setup/test_nbgrader_contract.py, among the first files, where its waiting overlaps
# the rest of the suite), so CI does. CONTRACT_ARGS="--jobs 2", or CONTRACT_ARGS="--select test_owner_check" for a few.
CONTRACT_ARGS ?=
nbgrader-contract: $(READY)
	$(NBGRADER_ENV) $(BIN)/python -m tools.nbgrader_contract $(CONTRACT_ARGS)

# Re-run every lesson notebook in a fresh kernel and save its outputs (then review `git diff`).
notebooks: $(READY)
	$(BIN)/python -m tools.refresh_notebooks notebooks/*.ipynb

bench: $(READY)
	$(BIN)/python -m bench.notebook_runtime
	$(BIN)/python -m bench.explorer_latency

# The lesson as web pages without code, served by Voila: the divisor explorer is notebook 04, and the links between
# notebooks work there too (Voila serving a single notebook would refuse them). E.g. make explore EXPLORE_ARGS=--no-browser
EXPLORE_PORT ?= 8866
EXPLORE_ARGS ?=
# The course's JupyterLab extension speaks of Validate, which pages without code have not: Voila leaves it out.
VOILA_WITHOUT := --VoilaConfiguration.extension_denylist='["attention-lesson-validate-notice"]'
explore: $(READY)
	@echo "The divisor explorer: http://localhost:$(EXPLORE_PORT)/voila/render/04-explore-the-divisor.ipynb"
	$(BIN)/voila notebooks --port=$(EXPLORE_PORT) $(VOILA_WITHOUT) $(EXPLORE_ARGS)

# The explorer as one self-contained page that needs no kernel, server or network: build/divisor-explorer.html, with
# the rows of seeds 0 to EXPLORE_SEEDS-1 embedded (the new-row button goes through them). Open it from disk.
EXPLORE_SEEDS ?= 20
explore-page: $(READY)
	$(BIN)/python -m attention_lesson.explorer.page --seeds $(EXPLORE_SEEDS)

# The installer: uv (astral-sh/uv, pinned here), installed into .venv by pip, puts requirements.txt's pins in .venv in
# seconds where pip takes about a minute on a 2-core machine (`make bench-install` measures both, side by side). Where
# uv cannot be had (no PyPI, a mirror without it) or fails, pip installs the same pins; INSTALLER=pip forces pip.
# --compile-bytecode: uv, unlike pip, writes no .pyc by default, and where PYTHONDONTWRITEBYTECODE is set (this
# machine sets it) every Python process would then compile nbgrader, IPython and numpy from source again: 4.7 s instead
# of 1.6 s to import the three: `make test` took 2,689 s of pytest without them and 1,396 s with them.
UV_VERSION = 0.13.9
INSTALLER ?= uv

# The built lab/ files are prerequisites too, so an existing .venv gets them linked once (later rebuilds show
# through the links).
$(READY): requirements.txt pyproject.toml lab/overrides.json lab/validate-notice/labextension/package.json \
          lab/jupyter_server_config.d/classroom-formgrader-autograde.json
	@$(PYTHON) -c 'import sys; sys.exit(0 if (3, 10) <= sys.version_info[:2] <= (3, 13) else "This lesson needs Python 3.10 to 3.13, and $(PYTHON) is Python %d.%d. Run make with PYTHON=python3.12 (or another supported version)." % sys.version_info[:2])'
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@if [ "$(INSTALLER)" = uv ] && $(BIN)/python -m pip install -q --disable-pip-version-check uv==$(UV_VERSION) \
	    && $(BIN)/uv pip install --compile-bytecode --python $(BIN)/python -r requirements.txt -e .; then :; else \
	  echo "Installing with pip (INSTALLER=$(INSTALLER); uv was not used): about a minute on a 2-core machine."; \
	  $(BIN)/python -m pip install --disable-pip-version-check -r requirements.txt -e .; fi
	$(MAKE) --no-print-directory lab-setup LAB_PREFIX=$(VENV)
	touch $(READY)

# What JupyterLab gets for this course (lab/README.md): the Validate notice extension, prebuilt (no node needed),
# settings that turn off the "official Jupyter news" question, and the server extension that makes the formgrader's
# Autograde button run classroom.autograde, linked into an environment's share/jupyter/ and etc/jupyter/.
# The $(READY) step does it for .venv; conda users: make lab-setup LAB_PREFIX="$$CONDA_PREFIX"
# A shared environment that other accounts use gets copies instead of links: LAB_LINK="cp -rT" (make hub-env).
LAB_PREFIX ?= $(VENV)
LAB_SHARE = $(LAB_PREFIX)/share/jupyter
LAB_LINK ?= ln -sfn
LAB_SERVER_CONFIG = $(LAB_PREFIX)/etc/jupyter/jupyter_server_config.d
lab-setup:
	mkdir -p $(LAB_SHARE)/labextensions $(LAB_SHARE)/lab/settings $(LAB_SERVER_CONFIG)
	$(LAB_LINK) $(abspath lab/jupyter_server_config.d/classroom-formgrader-autograde.json) \
	  $(LAB_SERVER_CONFIG)/classroom-formgrader-autograde.json
	$(LAB_LINK) $(abspath lab/validate-notice/labextension) $(LAB_SHARE)/labextensions/attention-lesson-validate-notice
	$(LAB_LINK) $(abspath lab/overrides.json) $(LAB_SHARE)/lab/settings/overrides.json

clean-venv:
	rm -rf $(VENV)

# Studying on your own (README.md, "Studying on your own") ---------------------------------------------------------
# `make exercise`: your copy of the exercise in my-work/$(ASSIGNMENT)/ (git-ignored), made from the student version in
# release/; a notebook already there is kept as it is. Then it opens in the JupyterLab already running on this folder,
# or a JupyterLab starts on it where none runs (LAB=no only prints where it is).
# `make check-exercise`: grades my-work/$(ASSIGNMENT)/ with the class's grader (sandboxed) in a private throw-away
# course, and writes the feedback pages to my-work/feedback/. Without bubblewrap it says what to install;
# CHECK_ARGS=--no-sandbox grades your own code without a sandbox, knowingly.
LAB ?= yes
CHECK_ARGS ?=

.PHONY: exercise check-exercise

exercise: $(READY)
	@$(CLASSROOM) exercise $(ASSIGNMENT) $(if $(filter no,$(LAB)),,--in-lab) || { status=$$?; [ $$status = 3 ] || exit $$status; \
	  $(MAKE) --no-print-directory lab LAB_FIRST=/lab/tree/my-work/$(ASSIGNMENT)/$(ASSIGNMENT).ipynb; }

check-exercise: $(READY)
	@$(CLASSROOM) check-exercise $(ASSIGNMENT) $(CHECK_ARGS)

# Instructors ------------------------------------------------------------------------------------------------
# The repository is the nbgrader course directory (nbgrader_config.py); INSTRUCTORS.md walks through the cycle.
ASSIGNMENT ?= score_gradient

.PHONY: exchange release quiz-variant autograde feedback grades report extension drop decisions bench-autograde \
	bench-sandbox bench-driver bench-scale bench-install bench-suite
.PHONY: release-zip collect-zip lms-grades lms-feedback

# Once per machine: the exchange folder where Release puts assignments and students hand in (classroom exchange,
# classroom/app/exchange.py), at c.Exchange.root (nbgrader's default /usr/local/share/nbgrader/exchange needs root:
# without it, this prints the sudo command), and the course's folder in it, owned by you (under sudo, by the account
# that ran sudo). EXCHANGE_ARGS="--owner teacher --group instructors" names others.
EXCHANGE_ARGS ?=
exchange: $(READY)
	$(CLASSROOM) exchange $(EXCHANGE_ARGS)

# Regenerate release/ (what students receive) from source/, after writing the checks of source/score_gradient/
# grade_cells.py (of the course directory make runs in) into the notebook's grade cells; commit the result. Once the
# graded quiz is handed out, a changed quiz is refused (classroom/decisions/quiz_key.py); QUIZ_REPLACE=yes puts it in
# knowingly and records its key.
QUIZ_REPLACE ?=
CHECKS_FILE = source/$(ASSIGNMENT)/grade_cells.py
release: $(READY)
	$(if $(wildcard $(CHECKS_FILE)),$(BIN)/python -m tools.write_grade_cells source/$(ASSIGNMENT)/$(ASSIGNMENT).ipynb)
	$(CLASSROOM) release $(ASSIGNMENT) $(if $(filter yes,$(QUIZ_REPLACE)),--replace-quiz)

# A graded quiz of your own: the five questions with other numbers and statements, drawn from QUIZ_SEED (a secret of
# at least 12 characters), its conceptual statements from your own file kept outside the repository (QUIZ_STATEMENTS,
# or c.QuizStatements.path in nbgrader_config.py; the format: classroom/quiz/demo_statements.json, a demo only).
# Rewrites source/score_gradient/intuition_quiz.ipynb, then release/ as `classroom release` does (classroom
# quiz-variant, classroom/app/quiz.py). Keep the seed, and commit the result only to a private repository. Once the
# quiz is handed out this refuses; QUIZ_REPLACE=yes replaces it knowingly (every student must fetch the new one).
quiz-variant: $(READY)
	$(CLASSROOM) quiz-variant $(if $(filter yes,$(QUIZ_REPLACE)),--replace-handed-out) \
	  $(if $(QUIZ_STATEMENTS),--statements "$(QUIZ_STATEMENTS)")

# Grade everything in submitted/ (after `nbgrader collect`); every submission ends with a grade. AUTOGRADE_ARGS=--force
# re-grades all. Every student process runs in a bubblewrap sandbox; without bubblewrap this refuses, unless
# AUTOGRADE_ARGS=--no-sandbox says, knowingly, to grade without one. JOBS submissions are graded at once (default:
# every core); AUTOGRADE_ARGS="--scheduler tcp://HOST:8786" grades on a Dask cluster instead (INSTRUCTORS.md,
# "Grading a large class").
JOBS ?= $(shell nproc 2>/dev/null || echo 1)
# `exec`: the driver takes the shell's place, so that it is make's own child and stops when make is killed.
autograde: $(READY)
	$(NBGRADER_ENV) exec $(BIN)/classroom autograde $(ASSIGNMENT) --jobs $(JOBS) $(AUTOGRADE_ARGS)

# HTML feedback in feedback/ (hidden checks named with their message, never their code), made while holding the
# course's lock (it waits for a grading run to finish); then nbgrader release_feedback, which releases only the pages
# of the current grades (classroom/plugins/release_feedback.py).
feedback: $(READY)
	$(CLASSROOM) feedback $(ASSIGNMENT)

# All grades to grades.csv.
grades: $(READY)
	$(CLASSROOM) grades

# What you decide about one student, kept in decisions.json (classroom/decisions/store.py), which every grading reads:
#   make extension STUDENT=alice DUEDATE="2026-12-18 23:59:00 -0500"   her own due date (DUEDATE=none removes it)
#   make drop STUDENT=bob                                               dropped for good (UNDO=yes takes him back)
#   make decisions                                                      list them
STUDENT ?=
DUEDATE ?=
UNDO ?=
extension: $(READY)
	$(CLASSROOM) extension $(ASSIGNMENT) "$(STUDENT)" $(if $(filter none,$(DUEDATE)),--remove,"$(DUEDATE)")

drop: $(READY)
	$(CLASSROOM) drop "$(STUDENT)" $(if $(filter yes,$(UNDO)),--undo)

decisions: $(READY)
	$(CLASSROOM) decisions

# The LMS route (INSTRUCTORS.md, "The LMS route"; classroom/lms/). The roster is the LMS's own list of students at
# lms/roster.csv (c.LmsRoster.path): Canvas's gradebook export or Moodle's grading worksheet; LMS=canvas|moodle
# checks which.
LMS ?=
ZIP ?=

# release/$(ASSIGNMENT)/ as one deterministic zip to upload to the LMS: lms/$(ASSIGNMENT)-release.zip.
release-zip: $(READY)
	$(CLASSROOM) release-zip $(ASSIGNMENT)

# The LMS's download of submissions (Canvas or Moodle naming) into submitted/, each file placed or refused with why.
collect-zip: $(READY)
	$(CLASSROOM) collect-zip $(ASSIGNMENT) "$(ZIP)"

# After grading: the grades in the LMS's import CSV, lms/$(ASSIGNMENT)-<lms>-grades.csv (CSV-safe).
lms-grades: $(READY)
	$(CLASSROOM) lms-grades $(ASSIGNMENT) $(if $(LMS),--lms $(LMS),)

# After `make feedback`: the pages as the LMS's bulk feedback upload zip, lms/$(ASSIGNMENT)-<lms>-feedback.zip.
lms-feedback: $(READY)
	$(CLASSROOM) lms-feedback $(ASSIGNMENT)

# After `make autograde`: report/$(ASSIGNMENT).png (scores, share failing each check), report/$(ASSIGNMENT).html (the
# same as tables, failure messages, submissions that needed attention) and report/$(ASSIGNMENT)-by-check.csv (a score
# per student, notebook and check: not nbgrader's grades.csv). REPORT_ARGS="--out DIR" writes them elsewhere.
report: $(READY)
	$(CLASSROOM) report $(ASSIGNMENT) $(REPORT_ARGS)

# Autograding cost per submission against the kernel start-up floor.
bench-autograde: $(READY)
	$(BIN)/python -m bench.autograde_cost

# pip against uv, each installing requirements.txt into a new venv with empty caches, side by side.
bench-install:
	$(PYTHON) -m bench.installers

# Grading through make autograde against plain nbgrader autograde, per submission, side by side.
bench-driver: $(READY)
	$(BIN)/python -m bench.driver_overhead

# Sandboxed against unsandboxed autograding cost per submission, side by side.
bench-sandbox: $(READY)
	$(BIN)/python -m bench.sandbox_overhead

# The CPU seconds of every test file of `make test`, with everything it started (root and a v1 cpuacct hierarchy).
bench-suite: $(READY)
	$(BIN)/python -m bench.suite_cpu $(PYTEST_ARGS)

# One class of 60 graded one at a time, with JOBS=2 and on 2 Dask workers, side by side; projects a class of 1,000.
bench-scale: $(READY)
	$(BIN)/python -m bench.autograde_scale

# A class on JupyterHub (INSTRUCTORS.md, "A class on JupyterHub"; deploy/jupyterhub/) -------------------------------
# The environment every account uses, read-only: made by root with a Python every user may run (never the pyenv
# Python under /root that .venv may use). Rebuilt only when the pins change; the course's package is reinstalled
# when a file of it changes (without classroom/quiz/, the quiz authoring modules, which pair each statement with its
# true and false wording: only `classroom quiz-variant`, run from the instructors' clone, needs them), and the lessons
# and Jupyter settings (deploy/jupyterhub/etc/jupyter/) are copied in on every run.
HUB_ENV ?= /opt/sqrt-dk/venv
HUB_PYTHON ?= /usr/bin/python3
HUB_PINS = $(shell cat requirements.txt deploy/jupyterhub/requirements.txt | sha256sum | cut -c1-16)
# the course's package (attention_lesson, classroom) is copied in, not linked: reinstalled when a file of it changes
HUB_PACKAGE = $(shell find attention_lesson classroom pyproject.toml -name __pycache__ -prune -o -type f -print | \
                LC_ALL=C sort | xargs cat | sha256sum | cut -c1-16)
HUB_PROXY := deploy/jupyterhub/node_modules/.bin/configurable-http-proxy
HUB_PORT ?= 8000

.PHONY: hub-env hub hub-class hub-student hub-clean

hub-env:
	@test "$$(id -u)" = 0 || { echo "make hub-env writes $(HUB_ENV): run it as root"; exit 1; }
	@umask 022; if [ "$$(cat $(HUB_ENV)/.pins 2>/dev/null)" != "$(HUB_PINS)" ]; then \
	  rm -rf $(HUB_ENV) && $(HUB_PYTHON) -m venv $(HUB_ENV) && \
	  $(HUB_ENV)/bin/python -m pip install --disable-pip-version-check -q -r deploy/jupyterhub/requirements.txt && \
	  echo $(HUB_PINS) > $(HUB_ENV)/.pins; fi
	@umask 022; if [ "$$(cat $(HUB_ENV)/.package 2>/dev/null)" != "$(HUB_PACKAGE)" ]; then \
	  $(HUB_ENV)/bin/python -m pip install --disable-pip-version-check -q --no-deps --force-reinstall . && \
	  echo $(HUB_PACKAGE) > $(HUB_ENV)/.package; fi
	rm -rf $(HUB_ENV)/lib/python3*/site-packages/classroom/quiz
	umask 022; $(MAKE) --no-print-directory lab-setup LAB_PREFIX=$(HUB_ENV) LAB_LINK="cp -rT"
	@umask 022; mkdir -p $(HUB_ENV)/etc/jupyter $(HUB_ENV)/share/sqrt-dk && \
	  cp -rT deploy/jupyterhub/etc/jupyter $(HUB_ENV)/etc/jupyter && \
	  rm -rf $(HUB_ENV)/share/sqrt-dk/lessons && cp -r notebooks $(HUB_ENV)/share/sqrt-dk/lessons

# The proxy needs the Node.js that package.json's "engines" names (>=20, which package-lock.json agrees with):
# checked first, with a message that says what to install; npm then refuses any package the lockfile pins that this
# Node does not support.
$(HUB_PROXY): deploy/jupyterhub/package.json deploy/jupyterhub/package-lock.json
	@$(HUB_PYTHON) deploy/jupyterhub/hub_class.py check-node
	npm ci --prefix deploy/jupyterhub --no-audit --no-fund --engine-strict
	touch $@

# A demo class on this machine: two groups, two instructors and two students (passwords printed), the course
# directory and the exchange, then JupyterHub on http://localhost:$(HUB_PORT) (Ctrl-C stops it; make hub-clean then
# removes the demo accounts, their homes, the course and the exchange). A port already taken stops it before anything
# is made; the hub's and the proxy's own ports are free ones.
hub: hub-env $(HUB_PROXY)
	@$(HUB_PYTHON) deploy/jupyterhub/hub_class.py check-node
	SQDK_ENV=$(HUB_ENV) SQDK_PORT=$(HUB_PORT) $(HUB_ENV)/bin/python deploy/jupyterhub/hub_class.py demo
	SQDK_ENV=$(HUB_ENV) SQDK_PORT=$(HUB_PORT) $(HUB_ENV)/bin/jupyterhub -f deploy/jupyterhub/jupyterhub_config.py

# The class of the fresh-server route (INSTRUCTORS.md, step 5): groups, accounts with private homes (new passwords
# printed), the course directory, the exchange and the hub's state folder, each recorded; students added later by
# make hub-student (a home made by plain useradd is private too: HOME_MODE 0700 in /etc/login.defs).
INSTRUCTORS ?=
STUDENTS ?=
STUDENT ?=
hub-class:
	@test -n "$(INSTRUCTORS)" || { echo 'make hub-class INSTRUCTORS="teacher [ta ...]" STUDENTS="alice bob ..."'; exit 1; }
	SQDK_ENV=$(HUB_ENV) $(HUB_ENV)/bin/python deploy/jupyterhub/hub_class.py class --instructors $(INSTRUCTORS) \
	  --students $(STUDENTS)

hub-student:
	@test -n "$(STUDENT)" || { echo 'make hub-student STUDENT="carol [dan ...]"'; exit 1; }
	SQDK_ENV=$(HUB_ENV) $(HUB_PYTHON) deploy/jupyterhub/hub_class.py student $(STUDENT)

# The one tear-down of both routes: removes what make hub, make hub-class and make hub-student made (accounts, their
# homes and processes, groups, folders), and names what it leaves (accounts it did not make, the shared environment,
# the clone, /etc/login.defs' HOME_MODE) with the command that removes each.
hub-clean:
	SQDK_ENV=$(HUB_ENV) $(HUB_PYTHON) deploy/jupyterhub/hub_class.py clean
