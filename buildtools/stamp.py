"""The build's version and the files that carry it: ``build-info.json`` and the service worker ``sw.js``.

The version is a hash of the site's content, so a browser that holds an older build sees a new
one (web/sw.js caches the files it lists, for use offline).
"""
from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from .common import ROOT, sha256_of
from .precache import precache_lists


def site_files(site: Path) -> list[str]:
    """Every file of the site, as sorted POSIX paths relative to it (precompressed copies left out)."""
    return sorted(p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file() and p.suffix != ".gz")


def site_hash(site: Path) -> str:
    """The build's version: sha256 over each file's path and sha256 (build-info.json and sw.js carry it)."""
    digest = hashlib.sha256()
    for name in site_files(site):
        if name not in ("build-info.json", "sw.js"):
            digest.update(f"{name}\0{sha256_of(site / name)}\n".encode())
    return digest.hexdigest()[:16]


def stamp_build(site: Path, info: dict) -> str:
    """Write build-info.json (``info`` and the site's content hash as ``build``) and sw.js; the hash."""
    version = site_hash(site)
    (site / "build-info.json").write_text(json.dumps({**info, "build": version}, indent=1))
    write_service_worker(site, version, info)
    return version


def write_service_worker(site: Path, version: str, info: dict):
    """``sw.js`` at the site root (its scope: the whole site) from web/sw.js, with this build's
    version and its lists of files to cache (buildtools/precache.py: the calculator's, the
    workshop's, the memory snapshot)."""
    lists = precache_lists(site, site_files(site), info)
    build = {"version": version, "calculator": lists.calculator, "workshop": lists.workshop, "snapshot": lists.snapshot}
    line = f"const BUILD = {json.dumps(build)};  // agreekit:build"
    script, found = re.subn(r"^const BUILD = .*// agreekit:build.*$", lambda _: line,
                            (ROOT / "web" / "sw.js").read_text(encoding="utf-8"), count=1, flags=re.M)
    if not found:
        raise SystemExit("web/sw.js has no `const BUILD = …  // agreekit:build` line to fill in")
    (site / "sw.js").write_text(script, encoding="utf-8")
