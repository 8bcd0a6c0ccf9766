"""The registry of kinds and the option checks: one declaration per kind, every option checked once."""
import inspect
import json
import subprocess
import sys

import pytest

import agreekit
from agreekit import registry
from agreekit.options import MAX_RESAMPLES, Option, check_value
from agreekit.rows import InputError

BOXES = "item,annotator,x,y,w,h,label\nimg1,a,0,0,10,10,car\nimg1,b,1,1,10,10,car\n" \
        "img2,a,5,5,10,10,car\nimg2,b,5,6,10,10,car\n"


def test_every_kind_is_registered_in_tab_order_and_callable_by_name():
    assert list(agreekit.KINDS) == ["boxes", "spans", "segments", "polygons", "masks", "cuboids", "traces"]
    for name, kind in agreekit.KINDS.items():
        assert getattr(agreekit, name) is kind.function
        assert kind.count_key.startswith("n_")


@pytest.mark.parametrize("name", list(agreekit.KINDS))
def test_declared_options_are_exactly_the_keyword_parameters(name):
    kind = agreekit.KINDS[name]
    parameters = inspect.signature(kind.function).parameters
    keywords = {p for p, v in parameters.items() if v.kind is inspect.Parameter.KEYWORD_ONLY} - {"progress"}
    assert {o.name for o in kind.options} == keywords
    defaults = kind.defaults()
    for option in kind.options:
        assert defaults[option.name] is parameters[option.name].default
        if defaults[option.name] is not None and option.type in ("float", "int", "choice", "floats"):
            assert check_value(option, defaults[option.name]) == pytest.approx(defaults[option.name]) \
                if option.type != "choice" else defaults[option.name] in [c.value for c in option.choices]


def test_kinds_json_is_strict_json_with_defaults_from_signatures():
    data = json.loads(json.dumps(registry.kinds_json(), allow_nan=False))
    boxes = data["kinds"][0]
    assert boxes["name"] == "boxes" and boxes["count_key"] == "n_boxes"
    options = {o["name"]: o for o in boxes["options"]}
    assert options["threshold"]["default"] == inspect.signature(agreekit.boxes).parameters["threshold"].default
    assert options["bootstrap"]["maximum"] == MAX_RESAMPLES
    assert [c["value"] for c in options["distance"]["choices"]] == ["giou", "iou", "centroid"]


@pytest.mark.parametrize("options, column", [
    ({"threshold": "abc"}, "threshold"), ({"threshold": 1.5}, "threshold"), ({"threshold": float("nan")}, "threshold"),
    ({"threshold": True}, "threshold"), ({"bootstrap": "abc"}, "bootstrap"), ({"bootstrap": 2.7}, "bootstrap"),
    ({"bootstrap": -1}, "bootstrap"), ({"bootstrap": 10 ** 12}, "bootstrap"), ({"pair_budget": 0}, "pair_budget"),
    ({"pair_budget": -5}, "pair_budget"), ({"distance": "manhattan"}, "distance"), ({"match": 1}, "match"),
    ({"seed": -1}, "seed"), ({"seed": "9" * 5000}, "seed"), ({"colour": "red"}, "colour"),
])
def test_bad_box_options_are_input_errors_naming_the_option(options, column):
    with pytest.raises(InputError) as caught:
        agreekit.boxes(BOXES, **options)
    assert caught.value.column == column


@pytest.mark.parametrize("kind, options, column", [
    ("traces", {"top_units": -1}, "top_units"), ("traces", {"top_units": "a"}, "top_units"),
    ("traces", {"order": 5}, "order"), ("traces", {"level": "interval"}, "level"),
    ("segments", {"tolerances": [[1, 2], 3]}, "tolerances"), ("segments", {"tolerances": "x"}, "tolerances"),
    ("segments", {"tolerances": [-1]}, "tolerances"), ("segments", {"tolerances": []}, "tolerances"),
    ("masks", {"max_iter": 10 ** 9}, "max_iter"), ("masks", {"tol": "x"}, "tol"), ("masks", {"start": "x"}, "start"),
    ("spans", {"lengths": 5}, "lengths"),
])
def test_bad_options_of_other_kinds_are_input_errors(kind, options, column):
    with pytest.raises(InputError) as caught:
        agreekit.report(kind, "a,b\n", **options)
    assert caught.value.column == column


def test_options_are_converted_to_their_declared_types():
    report = agreekit.boxes(BOXES, threshold="0.5", bootstrap=10.0, seed="7", pair_budget=1000)
    assert report.settings.threshold == 0.5 and report.settings.bootstrap == 10
    assert isinstance(report.settings.bootstrap, int) and report.settings.seed == 7
    assert agreekit.boxes(BOXES, threshold=None, bootstrap=0).settings.threshold == 0.5  # None: the default


def test_unknown_kind_is_an_input_error():
    with pytest.raises(InputError, match="unknown kind 'ellipses'"):
        agreekit.report("ellipses", BOXES)


def test_option_range_text_and_json():
    option = Option("k", "int", "k", minimum=1, maximum=9)
    assert option.range_text() == "from 1 to 9"
    assert option.to_json(3) == {"name": "k", "type": "int", "label": "k", "help": "", "default": 3,
                                 "minimum": 1, "maximum": 9}
    with pytest.raises(ValueError):
        Option("k", "complex", "k")


@pytest.mark.parametrize("name", list(agreekit.KINDS))
def test_cli_help_lists_every_option_with_its_default(name):
    result = subprocess.run([sys.executable, "-m", "agreekit", name, "--help"], capture_output=True, text=True,
                            check=True)
    kind = agreekit.KINDS[name]
    for option, default in kind.defaults().items():
        assert "--" + option.replace("_", "-") in result.stdout
        if isinstance(default, (int, float)) and not isinstance(default, bool):
            assert f"(default {default:g})" in " ".join(result.stdout.split()) or \
                f"(default {default})" in " ".join(result.stdout.split())


def test_cli_names_an_invalid_byte_and_an_internal_error_is_one_line(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_bytes(b"item,annotator,x,y,w,h,label\nimg1,\xff\xfe,0,0,1,1,car\n")
    result = subprocess.run([sys.executable, "-m", "agreekit", "boxes", str(path)], capture_output=True, text=True)
    assert result.returncode == 2
    assert "line 2" in result.stderr and "byte 34 (0xff)" in result.stderr and "Traceback" not in result.stderr
    stdin = subprocess.run([sys.executable, "-m", "agreekit", "boxes", "-"], input=path.read_bytes(),
                           capture_output=True)
    assert stdin.returncode == 2 and b"line 2" in stdin.stderr
    bom = subprocess.run([sys.executable, "-m", "agreekit", "boxes", "-", "--bootstrap", "0"],
                         input=b"\xef\xbb\xbf" + BOXES.encode(), capture_output=True)
    assert bom.returncode == 0, bom.stderr


def test_cli_internal_error_is_one_line_without_traceback(monkeypatch, capsys):
    import agreekit.kinds.boxes.report as box_kind
    from agreekit import cli

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(box_kind, "object_report", broken)
    monkeypatch.setattr(cli, "read_text", lambda path: BOXES)
    assert cli.main(["boxes", "-"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "internal error: RuntimeError: boom" in err and "Traceback" not in err
    with pytest.raises(RuntimeError):
        cli.main(["--debug", "boxes", "-"])
