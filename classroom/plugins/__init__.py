"""nbgrader seams that nbgrader_config.py plugs in besides the preprocessors: `exchange_collect.SafeCollect`
(nbgrader collect), `csv_export.SafeCsvExport` (nbgrader export) and `formgrader_autograde` (the formgrader's
Autograde button, a Jupyter server extension)."""
