"""The book's live edition: JupyterLite on Pyodide, built offline by `python -m lite.build` (`make lite`)."""
