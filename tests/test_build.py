"""build.py: the wheel, the lock checks on Pyodide package files, and the server's MIME types."""
from __future__ import annotations

import base64
import hashlib
import json
import subprocess
import sys
import threading
import urllib.request
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
import build  # noqa: E402
from buildtools import extras, precache, runtime  # noqa: E402


def test_wheel_holds_every_module_with_a_valid_record(tmp_path):
    wheel = build.build_wheel(tmp_path)
    assert wheel.name == "agreekit-0.1.0-py3-none-any.whl"
    assert wheel.stat().st_mode & 0o777 == 0o644
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        modules = {p.relative_to(build.PYCORE).as_posix() for p in (build.PYCORE / "agreekit").rglob("*.py")
                   if "__pycache__" not in p.parts}
        assert modules <= names
        record = archive.read("agreekit-0.1.0.dist-info/RECORD").decode().splitlines()
        for line in record:
            name, digest, size = line.rsplit(",", 2)
            if name.endswith("RECORD"):
                continue
            data = archive.read(name)
            expected = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            assert digest == f"sha256={expected}" and int(size) == len(data), name
        metadata = archive.read("agreekit-0.1.0.dist-info/METADATA").decode()
        assert "Requires-Dist: numpy" in metadata and "Name: agreekit" in metadata
    assert build.build_wheel(tmp_path / "again").read_bytes() == wheel.read_bytes()  # reproducible



def test_wheel_is_the_backends_build_of_the_package_plus_pyodides_bytecode(tmp_path):
    """The wheel holds the package's files, the dist-info the backend writes, and only matching bytecode."""
    import tomllib
    project = tomllib.loads((build.PYCORE / "pyproject.toml").read_text())["project"]
    files = {p.relative_to(build.PYCORE).as_posix() for p in (build.PYCORE / "agreekit").rglob("*")
             if p.is_file() and "__pycache__" not in p.parts and p.suffix not in (".pyc", ".pyo")}
    ours = "agreekit/__pycache__/cli.cpython-312.pyc"
    compiled = {ours: b"pyc of cli", "numpy/__pycache__/cli.cpython-312.pyc": b"another package's"}
    wheel = build.build_wheel(tmp_path, compiled)
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        assert {n for n in names if ".dist-info/" not in n} == files | {ours}
        assert archive.read(ours) == b"pyc of cli"
        info = "agreekit-0.1.0.dist-info/"
        assert {n.removeprefix(info) for n in names if n.startswith(info)} == {
            "METADATA", "WHEEL", "RECORD", "entry_points.txt"}
        record = {line.split(",")[0] for line in archive.read(info + "RECORD").decode().splitlines()}
        assert record == names
        scripts = {line.replace(" ", "") for line in archive.read(info + "entry_points.txt").decode().splitlines()}
        assert {f"{name}={target}" for name, target in project["scripts"].items()} <= scripts
        metadata = archive.read(info + "METADATA").decode()
        assert f"License-Expression: {project['license']}" in metadata and "Requires-Python: >=3.11" in metadata

def test_page_and_kinds_json_are_written_from_the_registry(tmp_path):
    from agreekit import registry
    build.build_page(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["index.html", "kinds.json"]
    kinds = json.loads((tmp_path / "kinds.json").read_text(encoding="utf-8"))
    assert kinds == registry.kinds_json()
    assert [k["name"] for k in kinds["kinds"]] == list(registry.KINDS)  # tab order
    page = (tmp_path / "index.html").read_text(encoding="utf-8")
    for kind in kinds["kinds"]:
        assert f'role="tab" id="tab-{kind["name"]}"' in page and f'<form class="input" data-kind="{kind["name"]}"' in page
    again = tmp_path / "again"
    again.mkdir()
    build.build_page(again)
    assert (again / "index.html").read_bytes() == (tmp_path / "index.html").read_bytes()  # reproducible
    assert (again / "kinds.json").read_bytes() == (tmp_path / "kinds.json").read_bytes()


def fake_lock(files):
    return {"packages": {
        "numpy": {"file_name": "numpy.whl", "sha256": hashlib.sha256(files["numpy.whl"]).hexdigest(), "depends": []},
        "scipy": {"file_name": "scipy.whl", "sha256": hashlib.sha256(files["scipy.whl"]).hexdigest(),
                  "depends": ["numpy", "openblas"]},
        "openblas": {"file_name": "openblas.zip", "sha256": hashlib.sha256(files["openblas.zip"]).hexdigest()},
        "micropip": {"file_name": "micropip.whl", "sha256": hashlib.sha256(files["micropip.whl"]).hexdigest(),
                     "depends": ["packaging"]},
        "packaging": {"file_name": "packaging.whl", "sha256": hashlib.sha256(files["packaging.whl"]).hexdigest()},
        "unrelated": {"file_name": "unrelated.whl", "sha256": "0" * 64},
    }}


def test_lock_closure_follows_dependencies():
    files = {n: n.encode() for n in ["numpy.whl", "scipy.whl", "openblas.zip", "micropip.whl", "packaging.whl"]}
    closure = build.lock_closure(fake_lock(files), ["scipy", "micropip"])
    assert sorted(closure) == sorted(files)


def test_only_files_matching_the_lock_are_taken(tmp_path, monkeypatch):
    files = {n: n.encode() * 3 for n in ["numpy.whl", "scipy.whl", "openblas.zip", "micropip.whl", "packaging.whl"]}
    source = tmp_path / "mirror" / "nested"
    source.mkdir(parents=True)
    for name, data in files.items():
        (source / name).write_bytes(data)
    (source / "scipy.whl").write_bytes(b"tampered")  # wrong hash: must be refused
    monkeypatch.setattr(runtime, "CACHE", tmp_path / "cache")
    monkeypatch.setattr(runtime, "_files_from_cdn", lambda wanted: iter(()))
    monkeypatch.setattr(runtime, "_files_from_pypi", lambda wanted: iter(()))
    with pytest.raises(SystemExit, match="scipy.whl"):
        build.fetch_pyodide_packages(fake_lock(files), str(tmp_path / "mirror"))
    (source / "scipy.whl").write_bytes(files["scipy.whl"])
    found = build.fetch_pyodide_packages(fake_lock(files), str(tmp_path / "mirror"))
    assert {name: path.read_bytes() for name, path in found.items()} == files
    assert all(path.parent == tmp_path / "cache" / "pyodide-packages" for path in found.values())


@pytest.fixture
def served(tmp_path):
    for name in ["a.wasm", "b.mjs", "c.js", "index.html", "d.whl"]:
        (tmp_path / name).write_bytes(b"x")
    server = build.make_server(tmp_path, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize("name, mime", [("a.wasm", "application/wasm"), ("b.mjs", "text/javascript"),
                                        ("c.js", "text/javascript"), ("index.html", "text/html; charset=utf-8")])
def test_server_sends_the_types_pyodide_needs(served, name, mime):
    direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback, never a proxy
    with direct.open(served + name) as response:
        assert response.headers["Content-Type"] == mime


def test_serve_command_prints_its_url_and_serves_the_page():
    if not (build.DIST / "index.html").exists():
        pytest.skip("dist/ not built (python3 build.py builds it)")
    process = subprocess.Popen([sys.executable, str(ROOT / "build.py"), "serve", "--port", "0"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline()
        url = line.split()[2]
        assert url.startswith("http://127.0.0.1:") and url.endswith("/"), line
        direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        with direct.open(url) as response:
            assert b'<script type="module" src="web/app.mjs">' in response.read()
        with direct.open(url + "pyodide/pyodide.asm.wasm") as response:
            assert response.headers["Content-Type"] == "application/wasm"
    finally:
        process.terminate()
        process.wait(timeout=10)


# --------------------------------------------------------------------------- offline: build hash and sw.js

def sw_build(site):
    """The BUILD object build.py wrote into sw.js."""
    line = next(line for line in (site / "sw.js").read_text().splitlines() if line.startswith("const BUILD = "))
    return json.loads(line.removeprefix("const BUILD = ").split(";  // agreekit:build")[0])


def small_site(folder, page=b"<p>page</p>"):
    for name, data in {"index.html": page, "web/app.mjs": b"app", "pyodide/p.wasm": b"\0asm",
                       "pyodide/p.wasm.gz": b"derived"}.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    return folder


def test_the_build_hash_covers_the_files_and_sw_js_lists_them(tmp_path):
    site = small_site(tmp_path / "a")
    version = build.stamp_build(site, {"wheel": "w.whl"})
    assert json.loads((site / "build-info.json").read_text()) == {"wheel": "w.whl", "build": version}
    assert sw_build(site) == {"version": version, "calculator": ["./", "build-info.json", "index.html", "web/app.mjs"],
                              "workshop": ["pyodide/p.wasm"], "snapshot": []}
    assert (site / "sw.js").read_text().count("self.addEventListener(\"fetch\"") == 1  # the worker itself follows
    same = small_site(tmp_path / "b")
    assert build.stamp_build(same, {"wheel": "w.whl"}) == version  # reproducible; the stamp itself is not hashed
    (same / "pyodide" / "p.wasm.gz").write_bytes(b"other")
    assert build.site_hash(same) == version  # a precompressed copy is derived: not part of the version
    changed = small_site(tmp_path / "c", page=b"<p>a later page</p>")
    assert build.stamp_build(changed, {"wheel": "w.whl"}) != version


def test_the_precache_lists_follow_the_declared_rule(tmp_path):
    files = {"index.html": "", "kinds.json": "", "web/app.mjs": "", "web/app.mjs.map": "", "web/workshop/w.mjs": "",
             "vendor/uplot/u.js": "", "examples/boxes.csv": "", "pyodide/pyodide.asm.wasm": "", "pyodide/pyodide.js": "",
             "pyodide/o.zip": "", "pyodide/np.whl": "", "pyodide/mpl.whl": "", "wheels/a/agreekit.whl": "",
             "wheels/numpy/n/numpy.whl": "", "wheels/scipy/s/base.whl": "", "wheels/scipy/s/sparse.whl": "",
             "snapshots/x/pyodide.snapshot": "", "pyscript/core.js": "", "pyscript/core.js.map": "", "workshop.html": "",
             "pyodide/pyodide-lock.json": json.dumps({"packages": {
                 "openblas": {"file_name": "o.zip"}, "numpy": {"file_name": "np.whl"}, "matplotlib": {"file_name": "mpl.whl"}}})}
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    info = {"wheel": "wheels/a/agreekit.whl", "numpy": "wheels/numpy/n/numpy.whl",
            "scipy": {"base": "wheels/scipy/s/base.whl", "sparse": "wheels/scipy/s/sparse.whl"},
            "snapshot": {"path": "snapshots/x/pyodide.snapshot", "bytes": 0}}
    lists = precache.precache_lists(tmp_path, build.site_files(tmp_path), info)
    assert lists.calculator == ("./", "examples/boxes.csv", "index.html", "kinds.json", "pyodide/o.zip",
                                "pyodide/pyodide-lock.json", "pyodide/pyodide.asm.wasm", "vendor/uplot/u.js",
                                "web/app.mjs", "wheels/a/agreekit.whl", "wheels/numpy/n/numpy.whl",
                                "wheels/scipy/s/base.whl", "wheels/scipy/s/sparse.whl")
    assert lists.workshop == ("pyodide/mpl.whl", "pyodide/np.whl", "pyodide/pyodide.js", "pyscript/core.js",
                              "web/workshop/w.mjs", "workshop.html")
    assert lists.snapshot == ("snapshots/x/pyodide.snapshot",)
    # a build without numpy's bytecode loads the lock's numpy by name: then that one is the calculator's
    plain = precache.precache_lists(tmp_path, build.site_files(tmp_path), {**info, "numpy": None, "snapshot": None})
    assert "pyodide/np.whl" in plain.calculator and "pyodide/np.whl" not in plain.workshop and plain.snapshot == ()


def test_the_built_service_worker_lists_every_file_of_dist_but_source_maps_once():
    if not (build.DIST / "sw.js").exists():
        pytest.skip("dist/ not built (python3 build.py builds it)")
    stamp = sw_build(build.DIST)
    info = json.loads((build.DIST / "build-info.json").read_text())
    assert stamp["version"] == info["build"] == build.site_hash(build.DIST)
    on_disk = sorted(p.relative_to(build.DIST).as_posix() for p in build.DIST.rglob("*")
                     if p.is_file() and p.suffix not in (".gz", ".map") and p != build.DIST / "sw.js")
    listed = stamp["calculator"] + stamp["workshop"] + stamp["snapshot"]
    assert sorted(listed) == sorted(["./"] + on_disk)  # each once: the lists do not overlap
    assert any(p.suffix == ".map" for p in build.DIST.rglob("*"))  # there are maps to leave out
    calculator = set(stamp["calculator"])
    assert {info["wheel"], info["numpy"], *info["scipy"].values()} <= calculator
    assert not [name for name in calculator if name.startswith(("pyscript/", "web/workshop/")) or "matplotlib" in name]
    lock = json.loads((build.DIST / "pyodide" / "pyodide-lock.json").read_text())["packages"]
    assert f"pyodide/{lock['matplotlib']['file_name']}" in stamp["workshop"]  # loaded by name
    assert info["scipy_rest"] in stamp["workshop"] and info["scipy_rest"] not in calculator
    for name in ("numpy", "scipy"):  # both pages load them by the calculator's URLs: no second form ships
        assert not (build.DIST / "pyodide" / lock[name]["file_name"]).exists()
    assert f"pyodide/{lock['openblas']['file_name']}" in calculator
    assert stamp["snapshot"] == [info["snapshot"]["path"]]
    assert not (build.DIST / "web" / "sw.js").exists()  # one worker script, at the root (its scope)
    assert "worker-src 'self'" in (build.DIST / "index.html").read_text()

# --------------------------------------------------------------------------- workshop page (issue 14)

WORKSHOP_INFO = {"wheel": "wheels/abc/agreekit-0.1.0-py3-none-any.whl", "numpy": "wheels/numpy/n/numpy-2.0.2-x.whl",
                 "scipy": {"base": "wheels/scipy/s/scipy-1.14.1-x.whl", "sparse": "wheels/scipy/s/scipy_sparse_linalg-1.14.1-x.whl"},
                 "scipy_rest": "wheels/scipy/s/scipy_rest-1.14.1-x.whl"}


def test_workshop_config_points_at_the_calculators_pyodide_and_wheels():
    config = build.workshop_config(WORKSHOP_INFO)
    assert config["interpreter"] == "./pyodide/pyodide.mjs"  # one set of Pyodide files for both pages
    # the calculator's URLs before the lock's names: Pyodide's loader then takes no numpy from the lock
    assert config["packages"] == ["./wheels/numpy/n/numpy-2.0.2-x.whl", "./wheels/scipy/s/scipy-1.14.1-x.whl",
                                  "./wheels/abc/agreekit-0.1.0-py3-none-any.whl", "openblas", "matplotlib"]
    assert config["packages_cache"] == "passthrough"  # loadPyodide's loader, not micropip; no lock in IndexedDB
    assert config["files"]["./web/workshop/workshop.py"] == "workshop.py"
    assert config["files"]["./build-info.json"] == "build-info.json"  # scipy's other parts: workshop.ready()
    plain = build.workshop_config({**WORKSHOP_INFO, "numpy": None})  # a build without Node: the lock's numpy
    assert plain["packages"][0] == "numpy"


def test_workshop_cells_are_filled_raw_in_scripts_and_escaped_in_solutions():
    template = ('<script type="py-editor"><!-- agreekit:cell a --></script>\n'
                '<pre><!-- agreekit:shown a --></pre>')
    page = build.render_workshop(template, {"a": "if x < 1 and y > 2:\n    pass\n"})
    assert '<script type="py-editor">\nif x < 1 and y > 2:\n    pass\n</script>' in page
    assert "<pre>if x &lt; 1 and y &gt; 2:\n    pass</pre>" in page
    with pytest.raises(SystemExit, match="agreekit:cell b"):
        build.render_workshop(template + "<!-- agreekit:cell b -->", {"a": "pass"})
    with pytest.raises(SystemExit, match="would end its <script>"):
        build.render_workshop(template, {"a": "print('</script>')"})


def test_matplotlib_comes_with_every_dependency_the_lock_names():
    tarball = build.CACHE / "npm" / f"pyodide-{build.PYODIDE_VERSION}.tgz"
    if not tarball.exists():
        pytest.skip("the Pyodide npm tarball is not cached yet (python3 build.py fetches it)")
    import tarfile
    with tarfile.open(tarball) as tar:
        lock = json.load(tar.extractfile("package/pyodide-lock.json"))
    names = {package for package, _ in build.lock_closure(lock, build.WORKSHOP_PACKAGES).values()}
    assert lock["packages"]["matplotlib"]["version"] == "3.8.4"
    assert {"matplotlib", "contourpy", "kiwisolver", "pillow", "fonttools", "cycler", "pyparsing",
            "python-dateutil", "six", "numpy", "openblas"} <= names
    assert "scipy" not in names  # scipy comes in the calculator's parts, by URL


def test_built_workshop_is_complete_and_the_calculator_does_not_load_it():
    if not (build.DIST / "workshop.html").exists():
        pytest.skip("dist/ not built (python3 build.py builds it)")
    page = (build.DIST / "workshop.html").read_text(encoding="utf-8")
    assert "<!-- agreekit:" not in page
    cells = {p.stem for p in (build.ROOT / "web" / "workshop" / "cells").glob("*.py")}
    assert page.count('<script type="py-editor"') == len(cells) - len([c for c in cells if c.endswith("-solution")])
    assert page.count('config="./workshop.json"') == 1  # only the setup cell carries the env's config
    config = json.loads((build.DIST / "workshop.json").read_text())
    for url in config["files"]:
        assert (build.DIST / url).exists(), url
    lock = json.loads((build.DIST / "pyodide" / "pyodide-lock.json").read_text())
    info = json.loads((build.DIST / "build-info.json").read_text())
    assert config == build.workshop_config(info)  # the calculator's URLs, from its build-info.json
    for url in config["packages"]:
        assert url in lock["packages"] or (build.DIST / url).exists(), url
    for name, (package, digest) in build.lock_closure(lock, build.WORKSHOP_PACKAGES).items():
        if package != "numpy":  # numpy: the calculator's, by URL
            assert build.sha256_of(build.DIST / "pyodide" / name) == digest, name
    core = build.DIST / "pyscript" / "core.js"
    assert core.exists() and (build.DIST / "pyscript" / "core.css").exists()
    bundled = " ".join(p.read_text(errors="replace") for p in (build.DIST / "pyscript").glob("core-*.js"))
    assert f'module:(e="{build.PYODIDE_VERSION}")' in bundled  # PyScript's own default Pyodide is ours
    calculator = " ".join(p.read_text() for p in (build.DIST / "web").glob("*.mjs"))
    assert "matplotlib" not in calculator and "pyscript" not in calculator


def test_server_sends_the_isolation_headers_unless_told_not_to(tmp_path):
    (tmp_path / "index.html").write_bytes(b"x")
    plain = type("Plain", (build.SiteHandler,), {"isolate": False})
    direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    for handler, expected in ((build.SiteHandler, build.ISOLATION_HEADERS), (plain, {})):
        server = build.make_server(tmp_path, 0, handler_base=handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            with direct.open(f"http://127.0.0.1:{server.server_address[1]}/index.html") as response:
                sent = {name: response.headers[name] for name in build.ISOLATION_HEADERS if name in response.headers}
        finally:
            server.shutdown()
            server.server_close()
        assert sent == expected


# --------------------------------------------------------------------------- precompressed copies (issue 15)

def test_large_compressible_files_get_a_reproducible_gz_copy(tmp_path):
    import gzip
    import random
    text = b"".join(b"line %d of a text file\n" % i for i in range(10_000))  # ~240 kB, gzip shrinks it
    noise = random.Random(1).randbytes(build.PRECOMPRESS_MIN_BYTES * 2)  # like a zip: gzip cannot
    files = {"pyodide/p.wasm": text, "pyodide/p.whl": noise, "small.js": text[:1000]}
    for name, data in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(data)
    assert build.precompress(tmp_path) == ["pyodide/p.wasm.gz"]
    packed = (tmp_path / "pyodide" / "p.wasm.gz").read_bytes()
    assert gzip.decompress(packed) == text and len(packed) < len(text) * build.PRECOMPRESS_MAX_RATIO
    assert build.precompress(tmp_path) == ["pyodide/p.wasm.gz"]  # the copies themselves are not compressed again
    assert (tmp_path / "pyodide" / "p.wasm.gz").read_bytes() == packed  # reproducible


@pytest.mark.parametrize("header, expected", [
    ("gzip, deflate, br, zstd", True), ("br;q=1.0, gzip;q=0.5", True), ("*", True), ("x-gzip", True),
    ("", False), ("identity", False), ("br", False), ("gzip;q=0", False), ("gzip;q=0, *", False),
    ("*;q=0, gzip", True), ("GZIP", True)])
def test_accept_encoding_is_read_with_its_weights(header, expected):
    assert build.accepts_gzip(header) is expected


def fetch_raw(url, accept_encoding=None, method="GET"):
    """(status, headers, body) of one request, the body as sent (urllib never decodes gzip)."""
    direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    request = urllib.request.Request(url, method=method)
    if accept_encoding is not None:
        request.add_header("Accept-Encoding", accept_encoding)
    with direct.open(request) as response:
        return response.status, response.headers, response.read()


def test_server_sends_the_gz_copy_only_to_clients_that_accept_gzip(tmp_path):
    import gzip
    wasm = b"\0asm" + bytes(range(256)) * 1000
    (tmp_path / "pyodide").mkdir()
    (tmp_path / "pyodide" / "p.wasm").write_bytes(wasm)
    (tmp_path / "pyodide" / "p.wasm.gz").write_bytes(gzip.compress(wasm, mtime=0))
    (tmp_path / "plain.js").write_bytes(b"let x = 1;")
    identity = type("Identity", (build.SiteHandler,), {"precompressed": False})
    servers = {}
    for label, handler in (("on", build.SiteHandler), ("off", identity)):
        server = build.make_server(tmp_path, 0, handler_base=handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers[label] = server
    try:
        on = f"http://127.0.0.1:{servers['on'].server_address[1]}/"
        off = f"http://127.0.0.1:{servers['off'].server_address[1]}/"
        status, headers, body = fetch_raw(on + "pyodide/p.wasm", "gzip, deflate, br")
        assert status == 200 and headers["Content-Encoding"] == "gzip"
        assert headers["Content-Type"] == "application/wasm"  # the worker's MIME check
        assert headers["Vary"] == "Accept-Encoding" and int(headers["Content-Length"]) == len(body) < len(wasm)
        assert gzip.decompress(body) == wasm
        for url, accept in ((on, None), (on, "identity"), (on, "gzip;q=0"), (off, "gzip")):
            status, headers, body = fetch_raw(url + "pyodide/p.wasm", accept)
            assert (status, headers["Content-Encoding"], body) == (200, None, wasm), (url, accept)
            assert headers["Content-Type"] == "application/wasm"
        status, headers, body = fetch_raw(on + "pyodide/p.wasm", "gzip", method="HEAD")  # the worker's check
        assert (status, headers["Content-Type"], headers["Content-Encoding"], body) == (200, "application/wasm", "gzip", b"")
        status, headers, body = fetch_raw(on + "plain.js", "gzip")  # no copy: the file itself
        assert (headers["Content-Encoding"], headers["Vary"], body) == (None, None, b"let x = 1;")
    finally:
        for server in servers.values():
            server.shutdown()
            server.server_close()


# --------------------------------------------------------------------------- scipy in two parts (issue 15)

def _fake_scipy_wheel(folder: Path) -> Path:
    wheel = folder / "scipy-1.14.1-cp312-cp312-pyodide_2024_0_wasm32.whl"
    files = {"scipy/__init__.py": b"# scipy", "scipy/version.py": b"v = 1", "scipy/_lib/_util.py": b"u",
             "scipy/_lib/_ccallback_c.cpython-312-wasm32-emscripten.so": b"\0asm1",
             "scipy/optimize/__init__.py": b"import everything",
             "scipy/optimize/_lsap.cpython-312-wasm32-emscripten.so": b"\0asm2",
             "scipy/optimize/_minpack.cpython-312-wasm32-emscripten.so": b"\0asm3",
             "scipy/sparse/__init__.py": b"s", "scipy/sparse/csgraph/_flow.cpython-312-wasm32-emscripten.so": b"\0asm4",
             "scipy/linalg/_flapack.cpython-312-wasm32-emscripten.so": b"\0asm5",
             "scipy/special/_ufuncs.cpython-312-wasm32-emscripten.so": b"\0asm6",
             "scipy-1.14.1.dist-info/METADATA": b"Metadata-Version: 2.1\nName: scipy\nVersion: 1.14.1\n",
             "scipy-1.14.1.dist-info/WHEEL": b"Wheel-Version: 1.0\n", "scipy-1.14.1.dist-info/RECORD": b"stale",
             "scipy-1.14.1.dist-info/LICENSE.txt": b"BSD"}
    with zipfile.ZipFile(wheel, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return wheel


def _members(wheel: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(wheel) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def test_scipy_is_cut_into_a_base_a_sparse_part_and_the_rest_of_the_original_bytes(tmp_path):
    original = _members(_fake_scipy_wheel(tmp_path))
    parts = build.split_scipy(tmp_path / "scipy-1.14.1-cp312-cp312-pyodide_2024_0_wasm32.whl", tmp_path / "out")
    assert parts == {"base": "scipy-1.14.1-cp312-cp312-pyodide_2024_0_wasm32.whl",
                     "sparse": "scipy_sparse_linalg-1.14.1-cp312-cp312-pyodide_2024_0_wasm32.whl",
                     "rest": "scipy_rest-1.14.1-cp312-cp312-pyodide_2024_0_wasm32.whl"}
    base, sparse, rest = (_members(tmp_path / "out" / parts[p]) for p in ("base", "sparse", "rest"))
    code = lambda files: {n for n in files if ".dist-info/" not in n}  # noqa: E731
    assert code(base) == {"scipy/__init__.py", "scipy/version.py", "scipy/_lib/_util.py",
                          "scipy/_lib/_ccallback_c.cpython-312-wasm32-emscripten.so",
                          "scipy/optimize/_lsap.cpython-312-wasm32-emscripten.so"}  # no optimize/__init__.py
    assert code(sparse) == {"scipy/sparse/__init__.py", "scipy/sparse/csgraph/_flow.cpython-312-wasm32-emscripten.so",
                            "scipy/linalg/_flapack.cpython-312-wasm32-emscripten.so"}
    assert code(rest) == {"scipy/optimize/__init__.py", "scipy/optimize/_minpack.cpython-312-wasm32-emscripten.so",
                          "scipy/special/_ufuncs.cpython-312-wasm32-emscripten.so"}
    assert sorted([*code(base), *code(sparse), *code(rest)]) == sorted(code(original))  # each file once
    assert all(part[n] == original[n] for part in (base, sparse, rest) for n in code(part))
    assert base["scipy-1.14.1.dist-info/LICENSE.txt"] == original["scipy-1.14.1.dist-info/LICENSE.txt"]
    assert base["scipy-1.14.1.dist-info/METADATA"] == original["scipy-1.14.1.dist-info/METADATA"]
    assert b"Name: scipy_sparse_linalg" in sparse["scipy_sparse_linalg-1.14.1.dist-info/METADATA"]
    assert b"Name: scipy_rest" in rest["scipy_rest-1.14.1.dist-info/METADATA"]
    for files, dist_info in ((base, "scipy-1.14.1.dist-info"), (sparse, "scipy_sparse_linalg-1.14.1.dist-info"),
                             (rest, "scipy_rest-1.14.1.dist-info")):
        record = files[f"{dist_info}/RECORD"].decode().splitlines()
        assert sorted(line.split(",")[0] for line in record) == sorted(files)
        for line in record:
            name, digest, size = line.split(",")
            if name.endswith("RECORD"):
                continue
            data = files[name]
            expected = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            assert digest == f"sha256={expected}" and int(size) == len(data)


def test_the_built_calculator_loads_two_parts_and_the_workshop_all_three_of_scipy():
    if not (build.DIST / "build-info.json").exists():
        pytest.skip("dist/ not built (python3 build.py builds it)")
    info = json.loads((build.DIST / "build-info.json").read_text())
    lock = json.loads((build.DIST / "pyodide" / "pyodide-lock.json").read_text())
    source = build.CACHE / "pyodide-packages" / lock["packages"]["scipy"]["file_name"]  # the build's copy
    if not source.exists():
        pytest.skip("the lock's scipy is not in .cache (python3 build.py fetches it)")
    whole = _members(source)
    base, sparse, rest = (_members(build.DIST / path) for path in (info["scipy"]["base"], info["scipy"]["sparse"],
                                                                 info["scipy_rest"]))
    assert any(n.startswith("scipy/optimize/_lsap") for n in base) and "scipy/optimize/__init__.py" not in base
    assert "scipy/sparse/csgraph/__init__.py" in sparse and "scipy/linalg/__init__.py" in sparse
    assert "scipy/stats/__init__.py" in rest and "scipy/optimize/__init__.py" in rest
    code = lambda files: {n: d for n, d in files.items() if ".dist-info/" not in n and not n.endswith(".pyc")}  # noqa: E731
    assert sorted([*code(base), *code(sparse), *code(rest)]) == sorted(code(whole))  # every file, once
    assert all(whole[n] == data for part in (base, sparse, rest) for n, data in code(part).items())
    worker = (build.DIST / "web" / "worker.mjs").read_text()
    assert "scipy.base" in worker and '"scipy"' not in worker and "scipy_rest" not in worker  # the calculator: two parts

# --------------------------------------------------------------------------- start-up extras (issue 15)

def built_info():
    if not (build.DIST / "build-info.json").exists():
        pytest.skip("dist/ not built (python3 build.py builds it)")
    return json.loads((build.DIST / "build-info.json").read_text())


def test_the_snapshot_is_of_this_pyodide_and_cached_by_the_service_worker():
    snapshot = built_info()["snapshot"]  # `build.py test` builds with Node, so there is one
    data = (build.DIST / snapshot["path"]).read_bytes()
    assert len(data) == snapshot["bytes"] and snapshot["path"].startswith(f"snapshots/{build.sha256_of(build.DIST / snapshot['path'])[:12]}/")
    words = memoryview(data[:48]).cast("I")
    assert words[0] == 1886286592  # Pyodide 0.27's snapshot magic (makeSnapshot)
    build_id = "".join(f"{word:08x}" for word in words[4:12])  # the header's Pyodide build id ...
    assert f'BUILD_ID:"{build_id}"' in (build.DIST / "pyodide" / "pyodide.mjs").read_text()  # ... is this one's
    assert sw_build(build.DIST)["snapshot"] == [snapshot["path"]]


def test_the_calculators_wheels_carry_pyodides_bytecode_for_every_module():
    info = built_info()
    for wheel in (info["wheel"], info["numpy"], info["scipy"]["base"], info["scipy"]["sparse"]):
        with zipfile.ZipFile(build.DIST / wheel) as archive:
            names = set(archive.namelist())
            headers = {name: archive.read(name)[:16] for name in names if name.endswith(".pyc")}
        sources = {n for n in names if n.endswith(".py")}
        assert {f"{s.rpartition('/')[0]}/__pycache__/{s.rpartition('/')[2][:-3]}.cpython-312.pyc"
                for s in sources} == set(headers), wheel
        assert len({h[:4] for h in headers.values()}) == 1  # one Python's magic number
        assert {int.from_bytes(h[4:8], "little") for h in headers.values()} == {1}  # unchecked hash (PEP 552)
    numpy = info["numpy"].split("/")
    assert numpy[:2] == ["wheels", "numpy"] and numpy[3] == json.loads(
        (build.DIST / "pyodide" / "pyodide-lock.json").read_text())["packages"]["numpy"]["file_name"]


def test_without_node_the_build_has_no_extras(monkeypatch):
    monkeypatch.setattr(extras.shutil, "which", lambda name: None)
    assert build.pyodide_extras(build.DIST / "pyodide") is None
