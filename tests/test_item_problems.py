"""What is wrong on an item of matched objects (breakdowns.item_problems): missed, extra, shifted, wrong label."""
import agreekit


def _box(item, annotator, x, label="car", w=10.0):
    return {"item": item, "annotator": annotator, "x": x, "y": 0.0, "w": w, "h": 10.0, "label": label}


def _items(rows, **options):
    report = agreekit.report("boxes", rows, bootstrap=0, **options)
    return {row["item"]: row for row in report["items"]}


def test_a_box_drawn_by_two_of_three_is_missed_by_the_third_and_one_by_one_is_extra():
    rows = [_box("i", "a", 0), _box("i", "b", 0), _box("i", "c", 100),   # c missed x=0 and drew an extra at 100
            _box("j", "a", 0), _box("j", "b", 0), _box("j", "c", 0)]
    items = _items(rows)
    assert (items["i"]["n_missed"], items["i"]["n_extra"]) == (1, 1)
    assert (items["j"]["n_missed"], items["j"]["n_extra"], items["j"]["n_shifted"], items["j"]["n_label_mismatch"]) \
        == (0, 0, 0, 0)


def test_a_matched_pair_barely_over_the_threshold_is_shifted_and_other_labels_are_a_wrong_label():
    rows = [_box("i", "a", 0), _box("i", "b", 4),                       # IoU 6/14 ≈ 0.43 at threshold 0.3: shifted
            _box("j", "a", 0), _box("j", "b", 0, label="truck")]        # IoU 1, labels differ
    items = _items(rows, threshold=0.3)
    assert (items["i"]["n_shifted"], items["i"]["n_label_mismatch"], items["i"]["n_missed"]) == (1, 0, 0)
    assert (items["j"]["n_shifted"], items["j"]["n_label_mismatch"]) == (0, 1)


def test_the_counts_do_not_depend_on_row_order():
    rows = [_box("i", "a", 0), _box("i", "b", 0), _box("i", "c", 100), _box("j", "a", 0), _box("j", "b", 3, "truck")]
    assert _items(rows, threshold=0.3) == _items(rows[::-1], threshold=0.3)


def test_among_items_found_alike_the_one_with_a_wrong_label_ranks_first():
    rows = [_box("same", "a", 0), _box("same", "b", 1),                 # shifted a little, same label
            _box("relabelled", "a", 0), _box("relabelled", "b", 0, label="truck")]
    report = agreekit.report("boxes", rows, bootstrap=0)
    assert [row["item"] for row in report["items"]] == ["relabelled", "same"]


def test_a_close_match_no_closer_than_chance_is_shifted():
    """Identical boxes everywhere make the between-item distance small: an IoU 0.9 pair is no closer than chance."""
    rows = [_box(f"same{k}", who, 0) for k in range(6) for who in "ab"] + [_box("i", "a", 0), _box("i", "b", 0.5)]
    report = agreekit.report("boxes", rows, bootstrap=0)
    items = {row["item"]: row for row in report["items"]}
    assert report["localization"]["mean_between"] <= items["i"]["mean_within"]
    assert items["i"]["n_shifted"] == 1 and items["same0"]["n_shifted"] == 0
