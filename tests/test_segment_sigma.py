"""Segment σ against the within-clip chance baseline (agreekit.measures.segment_chance, kinds.segments.sigma)."""
import itertools
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import ks_2samp

import agreekit
from agreekit.kinds.segments.compare import segment_objects
from agreekit.kinds.segments.durations import clip_durations
from agreekit.kinds.segments.report import segments
from agreekit.kinds.segments.rows import read_segments
from agreekit.kinds.segments.sigma import clip_segments
from agreekit.measures.segment_chance import PLACEMENT_STREAM, SE_TARGET, Placer, match_placements
from agreekit.simulate import centred_corpus

EXAMPLE = Path(__file__).resolve().parents[1] / "web" / "examples" / "segments.csv"


def _csv(lines):
    return "\n".join(["item,annotator,start,end,label", *lines])


def simulate(n_clips=300, noise=None, seed=0, annotators=("a", "b", "c")):
    """(CSV rows, durations): 5–9 segments of 1–6 s per annotator in clips of 30–120 s.

    ``noise`` None: every annotator places its own segments uniformly at random
    inside the clip; a number: every annotator marks the same true segments
    with Gaussian boundary noise of that many seconds (0: identical).
    """
    rng = np.random.default_rng(seed)
    lines, durations = [], {}
    for clip in range(n_clips):
        duration = rng.uniform(30, 120)
        durations[f"clip{clip}"] = float(duration)
        n = rng.integers(5, 10)
        length = rng.uniform(1, 6, n)
        start = rng.uniform(0, duration - length)
        for annotator in annotators:
            if noise is None:
                length = rng.uniform(1, 6, n)
                s, e = (start := rng.uniform(0, duration - length)), start + length
            else:
                s = np.clip(start + rng.normal(0, noise, n) * (noise > 0), 0, duration)
                e = np.clip(start + length + rng.normal(0, noise, n) * (noise > 0), 0, duration)
                s, e = np.minimum(s, e), np.maximum(s, e)
            lines += [f"clip{clip},{annotator},{x!r},{y!r},ev" for x, y in zip(s.tolist(), e.tolist())]
    return _csv(lines), durations


# --------------------------------------------------------------------------- the three regimes

def test_identical_annotators_give_sigma_one():
    rows, durations = simulate(40, noise=0.0)
    loc = segments(rows, durations=durations, bootstrap=50).localization
    assert loc.mean_within == 0.0 and loc.mean_chance > 0
    assert loc.sigma.value == 1.0 and loc.sigma.ci == [1.0, 1.0]


def test_random_annotators_give_sigma_near_zero():
    rows, durations = simulate(300, noise=None, seed=1)
    loc = segments(rows, durations=durations, bootstrap=200).localization
    assert abs(loc.sigma.value) < 0.05
    low, high = loc.sigma.ci
    assert low < loc.sigma.value < high


def test_careful_annotators_land_strictly_between():
    rows, durations = simulate(300, noise=0.3, seed=2)
    report = segments(rows, durations=durations, bootstrap=200)
    sigma = report.localization.sigma.value
    assert 0.2 < sigma < 0.9
    random_rows, random_durations = simulate(300, noise=None, seed=2)
    assert segments(random_rows, durations=random_durations, bootstrap=0).localization.sigma.value < sigma
    # every pair and every annotator has its own σ, near the corpus value here (the annotators are alike)
    for row in [*report.to_dict()["pairs"], *report.to_dict()["annotators"]]:
        assert row["sigma"]["value"] == pytest.approx(sigma, abs=0.1)


# --------------------------------------------------------------------------- against brute force

def _iou(a, b):
    inter = max(0.0, min(a[1], b[1]) - max(a[0], b[0]))
    union = (a[1] - a[0]) + (b[1] - b[0]) - inter
    if union <= 0:
        return 1.0 if a == b else 0.0
    return inter / union


def _giou_distance(a, b):
    union = (a[1] - a[0]) + (b[1] - b[0]) - max(0.0, min(a[1], b[1]) - max(a[0], b[0]))
    hull = max(a[1], b[1]) - min(a[0], b[0])
    giou = _iou(a, b) - ((hull - union) / hull if hull > 0 else 0.0)
    return (1.0 - giou) / 2.0


def _best_matching(first, second, threshold):
    """Every one-to-one matching of allowed pairs tried: the most pairs, then the largest total IoU."""
    allowed = [(i, j) for i in range(len(first)) for j in range(len(second))
               if _iou(first[i][:2], second[j][:2]) >= threshold]
    best, best_key = [], (0, 0.0)
    for size in range(1, min(len(first), len(second)) + 1):
        for chosen in itertools.combinations(allowed, size):
            if len({i for i, _ in chosen}) < size or len({j for _, j in chosen}) < size:
                continue
            key = (size, sum(_iou(first[i][:2], second[j][:2]) for i, j in chosen))
            if key > best_key:
                best, best_key = list(chosen), key
    return best


def brute_force_chance(rows, threshold, n_placements, seed):
    """Chance distances by plain loops: the same draws (columns in canonical order), placed and matched."""
    clips = {}
    for line in rows.splitlines()[1:]:
        item, annotator, start, end, label = line.split(",")
        clips.setdefault(item, {}).setdefault(annotator, []).append((float(start), float(end), label))
    # Items by content (each annotator's sorted segments, the tracks sorted), then name; on an item the
    # tracks by content, then annotator; each track by start, end, label: no name or row moves a draw.
    track = {(item, a): tuple(sorted(segments)) for item, tracks in clips.items() for a, segments in tracks.items()}
    content = {item: tuple(sorted(track[item, a] for a in tracks)) for item, tracks in clips.items()}
    canonical = [(item, annotator, segment) for item in sorted(clips, key=lambda i: (content[i], i))
                 for annotator in sorted(clips[item], key=lambda a: (track[item, a], a))
                 for segment in track[item, annotator]]
    duration = {item: max(s[1] for tracks in clips[item].values() for s in tracks) for item in clips}
    draws = np.random.default_rng([seed, PLACEMENT_STREAM]).random((n_placements, len(canonical))).tolist()
    distances = []
    for row in draws:
        placed = {}
        for u, (item, annotator, (start, end, label)) in zip(row, canonical):
            new_start = u * max(duration[item] - (end - start), 0.0)
            placed.setdefault(item, {}).setdefault(annotator, []).append((new_start, new_start + (end - start), label))
        for item, tracks in placed.items():
            for a, b in itertools.combinations(sorted(tracks), 2):
                for i, j in _best_matching(tracks[a], tracks[b], threshold):
                    distances.append(_giou_distance(tracks[a][i][:2], tracks[b][j][:2]))
    return sorted(distances)


def _dense_corpus(n_clips, seed, most=4):
    rng = np.random.default_rng(seed)
    lines = []
    for clip in range(n_clips):
        for annotator in "abc":
            for _ in range(rng.integers(1, most + 1)):
                start = round(rng.uniform(0, 8), 2)
                lines.append(f"c{clip},{annotator},{start},{round(start + rng.uniform(0.5, 4), 2)},"
                             f"{rng.choice(['x', 'y'])}")
    return _csv(lines)


@pytest.mark.parametrize("threshold", [0.5, 0.3])
def test_chance_distribution_equals_brute_force(threshold):
    rows = _dense_corpus(6, seed=int(threshold * 10))
    report = segments(rows, threshold=threshold, placements=25, bootstrap=0, seed=9).to_dict()
    loc = report["localization"]
    expected = brute_force_chance(rows, threshold, 25, 9)
    assert loc["chance_placements"] == 25 and loc["n_chance"] == len(expected)
    assert loc["mean_chance"] == pytest.approx(np.mean(expected), abs=1e-12)
    assert loc["sigma"]["value"] == pytest.approx(1 - loc["mean_within"] / np.mean(expected), abs=1e-12)


def test_every_chance_distance_equals_brute_force():
    rows = _dense_corpus(5, seed=4)
    corpus = read_segments(rows)
    objects, start, end = segment_objects(corpus)
    lengths, _ = clip_durations(corpus, None)
    clip = clip_segments(objects, start, end, lengths)
    placed_start, placed_end = Placer(clip, 3).take(30)
    found = match_placements(clip, placed_start, placed_end, 0.4)
    np.testing.assert_allclose(np.sort(found.distance), brute_force_chance(rows, 0.4, 30, 3), atol=1e-12)


@pytest.mark.parametrize("threshold", [0.5, 0.1, 0.0])
def test_component_matching_equals_matching_whole_blocks(threshold):
    # At threshold 0 pairs of IoU 0 tie, and components broke such ties otherwise than whole blocks (on
    # these draws: segment 17 matched 28 instead of 29); there match_placements matches whole blocks.
    # Crowded clips: possible partners form components larger than ENUMERATED_EDGES, solved by match().
    rows = _dense_corpus(8, seed=5, most=9)
    corpus = read_segments(rows)
    objects, start, end = segment_objects(corpus)
    lengths, _ = clip_durations(corpus, None)
    clip = clip_segments(objects, start, end, lengths)
    placed_start, placed_end = Placer(clip, 1).take(12)
    by_component = match_placements(clip, placed_start, placed_end, threshold)
    by_block = match_placements(clip, placed_start, placed_end, threshold, exact_blocks=True)
    for column in ("placement", "a", "b"):
        np.testing.assert_array_equal(getattr(by_component, column), getattr(by_block, column))
    np.testing.assert_array_equal(by_component.distance, by_block.distance)
    assert len(by_component.a) > 0


def test_within_side_is_the_reports_matching():
    rows = _dense_corpus(10, seed=6)
    report = segments(rows, bootstrap=0).to_dict()
    loc = report["localization"]
    assert loc["n_within"] == report["n_matched_pairs"]
    # overlapping segments have GIoU = IoU, so the GIoU distance is (1 − IoU) / 2
    assert loc["mean_within"] == pytest.approx((1 - report["mean_matched_iou"]) / 2, abs=1e-12)
    iou = segments(rows, bootstrap=0, distance="iou").localization
    assert iou.mean_within == pytest.approx(1 - report["mean_matched_iou"], abs=1e-12)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2), st.sampled_from("abc"), st.integers(0, 20), st.integers(0, 6),
                          st.sampled_from("xy")), min_size=2, max_size=24),
       st.sampled_from([0.5, 0.2, 1.0]))
def test_within_pairs_are_the_reports_matched_pairs_with_ties_and_instants(spec, threshold):
    # Integer times: duplicates, shared boundaries and zero-length segments (identical instants: IoU 1).
    rows = _csv([f"c{clip},{annotator},{start},{start + length},{label}"
                 for clip, annotator, start, length, label in spec])
    report = segments(rows, threshold=threshold, bootstrap=0, placements=3).to_dict()
    loc = report["localization"]
    assert loc["n_within"] == report["n_matched_pairs"]
    assert [p["sigma"]["n"] for p in report["pairs"]] == [p["n_matched"] for p in report["pairs"]]
    if report["n_matched_pairs"]:
        assert loc["mean_within"] == pytest.approx((1 - report["mean_matched_iou"]) / 2, abs=1e-12)


def test_ks_is_the_two_sample_statistic():
    rows, durations = simulate(30, noise=0.3, seed=3)
    report = segments(rows, durations=durations, bootstrap=0, placements=40)
    corpus = read_segments(rows)
    objects, start, end = segment_objects(corpus)
    clip = clip_segments(objects, start, end, clip_durations(corpus, durations)[0])
    within = match_placements(clip, start[None], end[None], 0.5, exact_blocks=True).distance
    chance = match_placements(clip, *Placer(clip, report.settings.seed).take(40), 0.5).distance
    assert report.localization.ks.value == pytest.approx(ks_2samp(within, chance).statistic, abs=1e-12)


# --------------------------------------------------------------------------- properties of the report

def test_report_is_invariant_to_row_order():
    rows = _dense_corpus(12, seed=7).splitlines()
    shuffled = [rows[0]] + [rows[1:][k] for k in np.random.default_rng(0).permutation(len(rows) - 1)]
    first, second = (segments("\n".join(r), bootstrap=0).to_dict()["localization"] for r in (rows, shuffled))
    assert first["chance_placements"] == second["chance_placements"]
    assert first["n_chance"] == second["n_chance"] and first["n_within"] == second["n_within"]
    for key in ("mean_within", "mean_chance", "chance_se"):
        assert second[key] == pytest.approx(first[key], abs=1e-12)
    for key in ("sigma", "ks"):
        assert second[key]["value"] == pytest.approx(first[key]["value"], abs=1e-12)


def test_default_placements_keep_the_standard_error_small_on_the_example():
    rows = open(EXAMPLE).read()
    for distance in ("giou", "iou"):
        loc = segments(rows, distance=distance).localization
        assert loc.chance_se <= SE_TARGET < 0.005
        assert 20 <= loc.chance_placements <= 1000
    fixed = segments(rows, placements=7, bootstrap=0).localization
    assert fixed.chance_placements == 7


def test_interval_resamples_clips_with_their_chance_pairs():
    rows, durations = simulate(20, noise=0.5, seed=8)
    first, second = (segments(rows, durations=durations, bootstrap=300, seed=4).localization for _ in range(2))
    assert first.sigma.ci == second.sigma.ci is not None
    assert first.sigma.ci[0] <= first.sigma.value <= first.sigma.ci[1]
    assert segments(rows, durations=durations, bootstrap=0).localization.sigma.ci is None


def test_two_annotators_pair_sigma_is_the_corpus_sigma():
    rows, durations = simulate(20, noise=0.4, seed=9, annotators=("a", "b"))
    report = segments(rows, durations=durations, bootstrap=0).to_dict()
    pair = report["pairs"][0]
    assert pair["sigma"]["value"] == pytest.approx(report["localization"]["sigma"]["value"], abs=1e-12)
    assert pair["mean_chance"] == pytest.approx(report["localization"]["mean_chance"], abs=1e-12)


def test_without_durations_the_assumption_is_stated_and_durations_change_the_baseline():
    rows, durations = simulate(15, noise=0.3, seed=10)
    assumed = segments(rows, bootstrap=0).localization
    given = segments(rows, durations=durations, bootstrap=0).localization
    assert "last segment end" in assumed.assumption and given.assumption is None
    assert assumed.mean_chance != given.mean_chance


def test_undefined_sigma_says_why():
    one_clip_filled = segments(_csv(["c1,a,0,2,x", "c1,b,0,2,x"]), bootstrap=0).localization
    assert one_clip_filled.sigma.value is None and "chance distance is 0" in one_clip_filled.sigma.reason
    apart = segments(_csv(["c1,a,0,1,x", "c1,b,5,6,x"]), bootstrap=0).localization
    assert apart.sigma.value is None and "no matched pairs" in apart.sigma.reason


# --------------------------------------------------------------------------- the command line

def _cli(*arguments):
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1] / "pycore")}
    done = subprocess.run([sys.executable, "-m", "agreekit", *arguments], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_cli_prints_segment_sigma_ks_and_alpha_u(tmp_path):
    rows, durations = simulate(12, noise=0.4, seed=11)
    (tmp_path / "segments.csv").write_text(rows)
    (tmp_path / "durations.csv").write_text("item,duration\n" + "".join(f"{k},{v!r}\n" for k, v in durations.items()))
    text = _cli("segments", str(tmp_path / "segments.csv"), "--durations", str(tmp_path / "durations.csv"),
                "--placements", "40", "--bootstrap", "100")
    report = segments(rows, durations=durations, placements=40, bootstrap=100).to_dict()
    loc = report["localization"]
    low, high = loc["sigma"]["ci"]
    assert f"sigma (within clip)       {loc['sigma']['value']:.4f}  [{low:.4f}, {high:.4f}]" in text
    assert f"KS D within vs chance     {loc['ks']['value']:.4f}" in text
    assert f"{loc['n_chance']:,} pairs in 40 placements (standard error {loc['chance_se']:.4f})" in text
    assert f"unitizing alpha (α_U)     {report['unitizing_alpha']['value']:.4f}" in text
    pair = report["pairs"][0]
    assert any(line.split()[:3] == [pair["a"], pair["b"], f"{pair['sigma']['value']:.4f}"]
               for line in text.splitlines())
    potato = _cli("segments", str(tmp_path / "segments.csv"), "--match", "potato", "--bootstrap", "0")
    assert "sigma: σ is not computed in potato mode" in potato


def test_cli_prints_sigma_cross_sigma_b_and_span_alpha_u(tmp_path):
    boxes = centred_corpus(12, seed=3)
    columns = list(boxes[0])
    (tmp_path / "boxes.csv").write_text("\n".join([",".join(columns)] + [",".join(repr(row[c]) if isinstance(
        row[c], float) else str(row[c]) for c in columns) for row in boxes]))
    text = _cli("boxes", str(tmp_path / "boxes.csv"), "--bootstrap", "0")
    loc = agreekit.boxes(boxes, bootstrap=0).localization
    assert f"sigma_cross               {loc.sigma_cross.value:.4f}" in text
    assert f"sigma_B (Braylan 2022)    {loc.significance_share.value:.4f}" in text
    assert f"(cross: {loc.ks_cross.value:.4f})" in text
    examples = Path(EXAMPLE).parent
    text = _cli("spans", str(examples / "spans.csv"), "--lengths", str(examples / "spans-lengths.csv"),
                "--bootstrap", "0")
    alpha = agreekit.spans((examples / "spans.csv").read_text(), lengths=(examples / "spans-lengths.csv").read_text(),
                           bootstrap=0).unitizing_alpha
    assert any(line.startswith("unitizing alpha (α_U)") and line.split()[3] == f"{alpha.value:.4f}"
               for line in text.splitlines())


def test_the_clips_taken_to_end_at_their_last_segment_are_named_in_sorted_order():
    # Found by tests/test_fuzz.py: the list followed the rows' order of first appearance.
    body = ["i1,a,0,1,x", "i3,a,0,2,x", "i2,a,0,3,x", "i3,b,0,2,x", "i2,b,0,3,x", "i1,b,0,1,x"]
    texts = {segments(_csv(order), durations={"i1": 30}, bootstrap=0).localization.assumption
             for order in (body, body[::-1])}
    assert texts == {"2 clip(s) without a duration are taken to end at their last segment end "
                     "over all annotators: i2, i3"}
