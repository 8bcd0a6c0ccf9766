#!/usr/bin/env python3
"""Build, serve and test the agreekit web calculator.

    python3 build.py                 build the wheel and the static site in dist/
    python3 build.py serve [--port N]   build if needed, serve dist/ on 127.0.0.1
    python3 build.py test [PYTEST ARGS]  install test needs into .venv, build, run all tests

The jobs live in ``buildtools/``, one module each (its ``__init__`` lists them); this file keeps
the commands and the names that tests and benchmarks import from ``build``. The site is
self-contained: Pyodide 0.27.7 with its official package files, each checked against
``pyodide-lock.json`` (``buildtools/runtime.py`` says where they come from), and every download
is cached under ``.cache/`` so that a rebuild needs no network.
"""
from __future__ import annotations

import argparse
import os
import sys

from buildtools.common import CACHE, DIST, PYCORE, PYODIDE_VERSION, ROOT, VENV, log, sha256_of  # noqa: F401
from buildtools.dist import build, content_addressed  # noqa: F401
from buildtools.extras import PyodideExtras, pyodide_extras  # noqa: F401
from buildtools.page import build_examples, build_page  # noqa: F401
from buildtools.precompress import PRECOMPRESS_MAX_RATIO, PRECOMPRESS_MIN_BYTES, precompress  # noqa: F401
from buildtools.runtime import (PYODIDE_CORE_FILES, PYODIDE_PACKAGES, fetch_pyodide_packages,  # noqa: F401
                                lock_closure, npm_tarball, verify_against_lock)
from buildtools.scipy_split import split_scipy  # noqa: F401
from buildtools.serve import (ISOLATION_HEADERS, MIME_TYPES, SiteHandler, accepts_gzip,  # noqa: F401
                              make_server, serve)
from buildtools.stamp import site_files, site_hash, stamp_build  # noqa: F401
from buildtools.testing import run_tests
from buildtools.wheel import build_wheel  # noqa: F401
from buildtools.workshop import (PYSCRIPT_CORE_VERSION, WORKSHOP_PACKAGES, build_workshop,  # noqa: F401
                                 render_workshop, workshop_config)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", nargs="?", default="build", choices=["build", "serve", "test"])
    parser.add_argument("--port", type=int, default=8000, help="serve: port on 127.0.0.1 (default 8000)")
    parser.add_argument("--rebuild", action="store_true", help="serve: rebuild even if dist/ exists")
    parser.add_argument("--pyodide-packages", metavar="PATH",
                        help="directory or archive holding the Pyodide package files "
                             "(default: $AGREEKIT_PYODIDE_PACKAGES)")
    args, rest = parser.parse_known_args(argv)
    if args.pyodide_packages:
        os.environ["AGREEKIT_PYODIDE_PACKAGES"] = args.pyodide_packages
    if args.command != "test" and rest:
        parser.error("unrecognized arguments: " + " ".join(rest))
    if args.command == "build":
        build()
    elif args.command == "serve":
        serve(args.port, args.rebuild)
    else:
        sys.exit(run_tests(rest))


if __name__ == "__main__":
    main()
