"""Time of the full span report on a corpus of 500 documents × 5 annotators × 20 spans.

Goal (issue 3): under 2 s in CPython including 1000 bootstrap resamples. The
corpus is seeded: each document (2,000 characters) has 20 entities of 4 labels;
each annotator marks each entity with jittered boundaries (60% exact, otherwise
±1–3 characters), sometimes another label (10%), sometimes not at all (8%,
replaced by a spurious span elsewhere so that each annotator keeps 20 spans).
Prints the median of 3 runs for the report from CSV text (parsing included) and
from a list of dicts, and in Potato mode. This machine is noisy: quote medians.

    PYTHONPATH=pycore python3 benchmarks/spans_bench.py
"""
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "pycore"))
import agreekit  # noqa: E402
from agreekit.rows import read_table  # noqa: E402
from agreekit.kinds.spans.rows import COLUMNS, REQUIRED, SYNONYMS, read_spans  # noqa: E402

N_DOCS, N_ANNOTATORS, N_SPANS, DOC_LENGTH = 500, 5, 20, 2000
LABELS = ("PER", "ORG", "LOC", "MISC")


def corpus(seed=1):
    rng = np.random.default_rng(seed)
    rows = []
    for d in range(N_DOCS):
        slots = np.sort(rng.choice(DOC_LENGTH // 50, N_SPANS, replace=False)) * 50
        starts = slots + rng.integers(0, 20, N_SPANS)
        ends = starts + rng.integers(3, 25, N_SPANS)
        labels = rng.choice(LABELS, N_SPANS)
        for a in range(N_ANNOTATORS):
            for s, e, label in zip(starts, ends, labels):
                if rng.random() < 0.08:  # missed: a spurious span in the gap instead
                    s = int(rng.integers(0, DOC_LENGTH - 30))
                    e = s + int(rng.integers(3, 25))
                elif rng.random() >= 0.6:
                    s = max(0, s + int(rng.integers(-3, 4)))
                    e = max(s + 1, e + int(rng.integers(-3, 4)))
                if rng.random() < 0.10:
                    label = LABELS[int(rng.integers(len(LABELS)))]
                rows.append({"item": f"doc{d:03d}", "annotator": f"ann{a}", "start": int(s), "end": int(e),
                             "label": str(label)})
    lengths = {f"doc{d:03d}": DOC_LENGTH for d in range(N_DOCS)}
    return rows, lengths


def as_csv(rows):
    lines = ["item,annotator,start,end,label"]
    lines += [f"{r['item']},{r['annotator']},{r['start']},{r['end']},{r['label']}" for r in rows]
    return "\n".join(lines)


def median_time(fn, runs=3):
    """Median wall-clock and CPU seconds of ``runs`` calls, and the last result.

    On a shared, loaded machine the CPU time of this process is the steadier figure.
    """
    wall, cpu = [], []
    for _ in range(runs):
        w0, c0 = time.perf_counter(), time.process_time()
        result = fn()
        wall.append(time.perf_counter() - w0)
        cpu.append(time.process_time() - c0)
    return statistics.median(wall), statistics.median(cpu), result


def main():
    rows, lengths = corpus()
    text = as_csv(rows)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; "
          f"sum(range(10**6)) takes {median_time(lambda: sum(range(10 ** 6)), 5)[0] * 1e3:.0f} ms wall")
    print(f"corpus: {N_DOCS} documents × {N_ANNOTATORS} annotators × {N_SPANS} spans = {len(rows)} spans, "
          f"{DOC_LENGTH} characters each; bootstrap 1000 resamples")
    for name, fn in [
        ("optimal, CSV text", lambda: agreekit.spans(text, lengths=lengths, bootstrap=1000)),
        ("optimal, list of dicts", lambda: agreekit.spans(rows, lengths=lengths, bootstrap=1000)),
        ("potato, CSV text", lambda: agreekit.spans(text, lengths=lengths, match="potato", bootstrap=1000)),
    ]:
        seconds, cpu, report = median_time(fn)
        print(f"{name:<24} median of 3: {seconds:.3f} s wall, {cpu:.3f} s CPU   (goal < 2 s)   exact F1 {report.exact_f1.value:.3f} "
              f"partial F1 {report.partial_f1.value:.3f} character-level α {report.char_alpha.value:.3f}")
    for name, fn in [
        ("of which: rows.read_table on the CSV text", lambda: read_table(text, COLUMNS, SYNONYMS, required=REQUIRED)),
        ("of which: read_spans (read_table + checks)", lambda: read_spans(text)),
    ]:
        seconds, cpu, _ = median_time(fn)
        print(f"{name:<44} median of 3: {seconds:.3f} s wall, {cpu:.3f} s CPU")


if __name__ == "__main__":
    main()
