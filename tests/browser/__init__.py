"""Browser tests: JupyterLab and the static site in Chromium (run with --browser)."""
