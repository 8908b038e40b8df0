"""nbgrader seams that nbgrader_config.py plugs in besides the preprocessors: `exchange_collect.SafeCollect`
(nbgrader collect), `csv_export.SafeCsvExport` (nbgrader export) and `formgrader_autograde` (the formgrader's
Autograde button, a Jupyter server extension); and nbgrader_config.py, the selection of every classroom class nbgrader
uses, with no course setting (a course loads it from SELECTION_FOLDER)."""
import os

# The folder of the plugin selection, nbgrader_config.py: for a course's load_subconfig, or nbgrader's config path.
SELECTION_FOLDER = os.path.dirname(os.path.abspath(__file__))
