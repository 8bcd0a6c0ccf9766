"""Test tiers: which tests the bare `pytest` (the fast tier) leaves to the full suite.

`pytest` from the repository root runs every test not marked ``slow`` or ``big`` (pytest.ini's
addopts); `python3 build.py test` passes ``-m ""`` and runs them all. Marks are given here, from
the lists below, so that a test's tier is read in one place rather than on each test.
"""
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent

# Collected by pytest's --doctest-modules: the command-line entry point is not a module to import,
# and tests/fixtures holds data (the toy kind's package is imported by tests/test_toy_kind.py
# through AGREEKIT_KIND_PATHS, never as a module of tests/).
collect_ignore = ["pycore/agreekit/__main__.py", "tests/fixtures"]

# pytest.ini's `pythonpath` serves this process; the CLI tests start `python -m agreekit` too.
os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "pycore"), os.environ.get("PYTHONPATH")]))

# Whole files, by path from the root: every test in them gets these marks.
FILE_MARKS = {
    "tests/test_pyodide.py": ("pyodide", "slow"),  # the core in Pyodide under Node: a cold start each
}

# Browser tests (tests/browser) in the fast tier: those of these modules that take the module's
# shared page (the `warm_page` fixture): the examples of every tab against CPython, bad input and
# hostile labels, the JSON download, the item views. Each module costs one cold start (~8 s here):
# test_item_links.py would add ~20 s more. Every other browser test (a cold start of its own, or a
# module not listed) is marked slow.
FAST_BROWSER_MODULES = {"test_page.py", "test_more_tabs.py", "test_item_views.py"}

# Single tests (node ids from the root; without "[...]" a test's every parameter) and their marks:
# the slowest CPython tests, from `pytest --durations=0` on 2 cores (seconds at load ~2.5; the
# order held at load ~15).
BIG = ("big",)    # a large fuzz, property or random-corpus run
SLOW = ("slow",)  # a subprocess (`python -m agreekit` imports numpy and scipy: ~1 s each), a format round trip
TEST_MARKS = {
    "tests/test_fuzz.py::test_any_text_gives_a_report_or_a_located_error": BIG,     # 24 s over 7 kinds
    "tests/test_pair_budget.py::test_many_annotators_fit_in_a_small_address_space": BIG,  # 2.7 s, 2.5 s
    "tests/test_polygon.py::test_large_polygons_checked_through_sorted_boxes": BIG,  # 2.5 s
    "tests/test_polygon.py::test_random_simple_polygons_match_shapely": BIG,        # 1.0-1.4 s each
    "tests/test_polygon.py::test_invariances": BIG,                                 # 1.9 s
    "tests/test_segments.py::test_sweep_properties": BIG,                           # 2.0 s
    "tests/test_spans.py::test_item_scoring_equals_pair_by_pair_matching": BIG,     # 1.1 s
    "tests/test_segments.py::test_boundary_f1_interval_equals_recomputation_on_resampled_items": BIG,  # 1.0 s
    "tests/test_segments.py::test_sorted_search_finds_the_pairs_of_the_matrix_of_differences": BIG,
    "tests/test_segments.py::test_batched_boundary_counts_equal_per_pair_matchings": BIG,
    "tests/test_segments.py::test_boundary_matching_is_maximum": BIG,
    "tests/test_spans.py::test_row_order_and_annotator_names_do_not_matter": BIG,
    "tests/test_spans.py::test_five_way_counts_add_up_on_random_corpora": BIG,
    "tests/test_spans.py::test_five_way_is_the_lexicographically_best_matching": BIG,
    "tests/test_spans.py::test_character_alpha_against_a_slow_reference": BIG,
    "tests/test_unitizing.py::test_one_continuum_matches_the_direct_formulas": BIG,
    "tests/test_unitizing.py::test_a_corpus_matches_the_direct_formulas": BIG,
    "tests/test_segment_sigma.py::test_careful_annotators_land_strictly_between": BIG,
    "tests/test_segment_sigma.py::test_random_annotators_give_sigma_near_zero": BIG,
    "tests/test_cuboid.py::test_agrees_with_monte_carlo_within_three_standard_errors": BIG,
    "tests/test_hardening_inputs.py::test_character_alpha_on_runs_equals_alpha_on_characters": BIG,
    "tests/browser/test_item_views.py::test_a_view_of_500_boxes_draws_every_box": BIG,   # 15 s at load 15
    "tests/browser/test_item_links.py::test_a_large_mask_view_is_drawn_pooled": BIG,     # a 12,000² mask
    "tests/test_formats_audio.py::test_rttm_round_trip": SLOW,                      # 3.1 s
    "tests/test_formats_audio.py::test_audacity_round_trip": SLOW,
    "tests/test_formats_text.py::test_round_trip": SLOW,                            # brat 1.6 s, doccano, prodigy
    "tests/test_formats_audio.py::test_cli_reports_and_converts_each_format": SLOW,  # 0.9-1.4 s each
    "tests/test_formats_audio.py::test_cli_reads_an_agreekit_tsv_named_txt_as_a_table": SLOW,
    "tests/test_formats_text.py::test_cli_report_and_convert": SLOW,
    "tests/test_formats_text.py::test_cli_potato_boxes_and_a_refused_export": SLOW,
    "tests/test_formats_labelstudio.py::test_cli_report_and_convert": SLOW,
    "tests/test_traces.py::test_cli_json_equals_api_and_bad_input_exits_2": SLOW,
    "tests/test_segments.py::test_cli": SLOW,
    "tests/test_polygons.py::test_cli_polygons": SLOW,
    "tests/test_segment_sigma.py::test_cli_prints_segment_sigma_ks_and_alpha_u": SLOW,
    "tests/test_segment_sigma.py::test_cli_prints_sigma_cross_sigma_b_and_span_alpha_u": SLOW,
    "tests/test_masks.py::test_cli_masks": SLOW,
    "tests/test_boxes.py::test_cli_json_equals_api": SLOW,
    "tests/test_cuboids.py::test_cli_json_equals_api": SLOW,
    "tests/test_spans.py::test_command_line": SLOW,
    "tests/test_registry.py::test_cli_help_lists_every_option_with_its_default": SLOW,  # 7 subprocesses
    "tests/test_registry.py::test_cli_names_an_invalid_byte_and_an_internal_error_is_one_line": SLOW,
}


def marks_for(nodeid, fixtures=()):
    """The marks the lists above give the test ``nodeid`` that takes the fixtures ``fixtures``."""
    path = nodeid.split("::")[0]
    marks = list(FILE_MARKS.get(path, ()))
    if path.startswith("tests/browser/"):
        marks.append("browser")
        if Path(path).name not in FAST_BROWSER_MODULES or "warm_page" not in fixtures:
            marks.append("slow")
    bare = nodeid.split("[")[0]
    marks += TEST_MARKS.get(nodeid, ()) or TEST_MARKS.get(bare, ())
    return marks


@pytest.hookimpl(tryfirst=True)  # before pytest's own -m deselection reads the marks
def pytest_collection_modifyitems(config, items):
    for item in items:
        for name in marks_for(item.nodeid, getattr(item, "fixturenames", ())):
            item.add_marker(getattr(pytest.mark, name))
