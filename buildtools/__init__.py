"""The jobs behind ``build.py``, one module each.

``common``      paths, versions, logging and hashing every job shares
``runtime``     Pyodide's files and package wheels, npm tarballs (fetched once into ``.cache/``, hash-checked)
``wheel``       the agreekit wheel (PEP 517, flit_core) and the reproducible zip writer for rewritten wheels
``extras``      Pyodide's bytecode and memory snapshot, made under Node (``scripts/pyodide_build.mjs``)
``scipy_split`` Pyodide's scipy cut into the calculator's two parts
``page``        index.html and kinds.json from the registry, the example files
``workshop``    workshop.html, PyScript and the workshop's packages
``stamp``       the build's content hash, build-info.json and the service worker
``precache``    what the service worker caches, and when: the calculator's, the workshop's and the snapshot's lists
``precompress`` the ``.gz`` copies served to clients that accept gzip
``dist``        ``build()``: all of the above into ``dist/``
``serve``       the static server (MIME types, isolation headers, gzip copies)
``testing``     ``build.py test``: the test environment and pytest
"""
