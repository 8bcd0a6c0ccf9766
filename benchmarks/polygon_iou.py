"""Polygon IoU and STAPLE speed (prints figures; not a test).

1. All-pairs IoU of 2,000 random simple polygons of 20 vertices (1,999,000
   unordered pairs) with :func:`agreekit.polygon.pairwise_iou`, against shapely's
   vectorized ``intersection`` and ``union`` areas on the same pairs in the same run
   (if shapely is installed). Two layouts:

   * ``overlapping``: every polygon near the image centre, so nearly every pair
     overlaps (the worst case: one large object per image); shapely, about 3,000
     pairs/s here, is timed on a seeded sample of ``--shapely-pairs`` of the pairs
     (all 2 M would take over ten minutes), so its pairs/s is a rate on that sample;
   * ``scattered``: centres uniform over an image 20 polygon-widths wide, so most
     bounding boxes are disjoint (agreekit skips those pairs; shapely is given the
     same candidate pairs through an ``STRtree`` query for a fair comparison).

   Prints pairs/s of each and the ratio, and the largest IoU difference.

2. STAPLE on 50 images of 1024 × 1024 pixels from 5 annotators: the mask report
   from compressed COCO RLE rows (parse, union, STAPLE, majority vote, IoU, on
   runs), and :func:`agreekit.staple` on dense boolean arrays.

Medians of ``--repeats`` runs of wall time and of process CPU time (the machine has
2 noisy cores shared with other work: CPU time is the steadier figure).

Usage: PYTHONPATH=pycore python benchmarks/polygon_iou.py [--repeats 3] [--polygons 2000] [--shapely-pairs 100000]
"""
import argparse
import statistics
import time

import numpy as np

import agreekit
from agreekit.geometry import polygon_checks as C
from agreekit.geometry import polygons as P
from agreekit.geometry import rle as M



def timed(function, repeats):
    """Median wall and CPU seconds of ``repeats`` runs, and the last result."""
    wall, cpu = [], []
    for _ in range(repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        result = function()
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return (statistics.median(wall), statistics.median(cpu)), result


def star_polygons(n, vertices, spread, rng):
    """Random simple star-shaped polygons (radius 0.5–1, non-convex)."""
    angles = np.sort(rng.uniform(0, 2 * np.pi, (n, vertices)), axis=1)
    radii = rng.uniform(0.5, 1.0, (n, vertices))
    centres = rng.uniform(-spread, spread, (n, 1, 2))
    return centres + np.stack([radii * np.cos(angles), radii * np.sin(angles)], axis=-1)


def shapely_all_pairs(shapes, i, j, chunk=200_000):
    import shapely
    inter = np.empty(len(i))
    union = np.empty(len(i))
    for s in range(0, len(i), chunk):
        a, b = shapes[i[s:s + chunk]], shapes[j[s:s + chunk]]
        inter[s:s + chunk] = shapely.area(shapely.intersection(a, b))
        union[s:s + chunk] = shapely.area(shapely.union(a, b))
    return inter / union


def polygon_benchmark(n, vertices, repeats, shapely_pairs):
    rng = np.random.default_rng(1)
    try:
        import shapely
    except ImportError:
        shapely = None
    for layout, spread in (("overlapping", 0.3), ("scattered", 20.0)):
        polys = list(star_polygons(n, vertices, spread, rng))
        ps = P.pack(C.validate_polygons(polys))
        n_pairs = n * (n - 1) // 2
        (ours_wall, ours_cpu), matrix = timed(lambda: P.pairwise_iou(ps), repeats)
        lo = np.maximum(ps.lower[:, None], ps.lower[None, :])
        hi = np.minimum(ps.upper[:, None], ps.upper[None, :])
        overlapping = int(np.triu(np.all(lo < hi, axis=-1), 1).sum())
        print(f"polygon IoU, {layout}: {n} polygons × {vertices} vertices, {n_pairs:,} pairs "
              f"({overlapping:,} with overlapping bounding boxes)")
        print(f"  agreekit pairwise_iou, all pairs   wall {ours_wall:8.2f} s {n_pairs / ours_wall:12,.0f} pairs/s"
              f"   CPU {ours_cpu:8.2f} s {n_pairs / ours_cpu:12,.0f} pairs/s")
        if shapely is None:
            print("  shapely not installed: no comparison")
            continue
        shapes = np.array([shapely.Polygon(p) for p in polys])
        if layout == "overlapping":
            i, j = np.triu_indices(n, 1)
            pick = np.sort(np.random.default_rng(3).choice(len(i), min(shapely_pairs, len(i)), replace=False))
            i, j = i[pick], j[pick]
            done = len(i)
        else:
            tree = shapely.STRtree(shapes)
            i, j = tree.query(shapes)  # candidate pairs whose envelopes intersect
            keep = i < j
            i, j = i[keep], j[keep]
            done = n_pairs  # the tree answers for every pair
        (theirs_wall, theirs_cpu), ref = timed(lambda: shapely_all_pairs(shapes, i, j), repeats)
        if layout == "scattered":
            (tree_wall, tree_cpu), _ = timed(lambda: shapely.STRtree(shapes).query(shapes), repeats)
            theirs_wall, theirs_cpu = theirs_wall + tree_wall, theirs_cpu + tree_cpu
        rate_wall, rate_cpu = done / theirs_wall, done / theirs_cpu
        label = (f"{len(i):,} sampled pairs" if layout == "overlapping"
                 else f"STRtree + {len(i):,} candidate pairs")
        print(f"  shapely intersection + union ({label})   wall {theirs_wall:8.2f} s {rate_wall:12,.0f} pairs/s"
              f"   CPU {theirs_cpu:8.2f} s {rate_cpu:12,.0f} pairs/s")
        print(f"  speed ratio agreekit / shapely: wall {n_pairs / ours_wall / rate_wall:.2f}×, "
              f"CPU {n_pairs / ours_cpu / rate_cpu:.2f}×   largest |IoU difference| "
              f"{np.max(np.abs(matrix[i, j] - ref)):.1e}")


def blob_masks(rng, size=1024, annotators=5):
    """An ellipse per image; each annotator traces it with its own offset and scale,
    plus a few small spurious blobs."""
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32)
    cy, cx = rng.uniform(0.35, 0.65, 2) * size
    ry, rx = rng.uniform(0.15, 0.3, 2) * size
    out = []
    for _ in range(annotators):
        dy, dx = rng.normal(0, 0.01 * size, 2)
        s = rng.normal(1, 0.03)
        m = ((yy - cy - dy) / (ry * s)) ** 2 + ((xx - cx - dx) / (rx * s)) ** 2 <= 1
        for _ in range(int(rng.integers(0, 4))):
            by, bx = rng.uniform(0, size, 2)
            m |= (yy - by) ** 2 + (xx - bx) ** 2 <= rng.uniform(5, 30) ** 2
        out.append(m)
    return np.array(out)


def staple_benchmark(n_images, size, annotators, repeats):
    rng = np.random.default_rng(2)
    images = [blob_masks(rng, size, annotators) for _ in range(n_images)]
    lines = ["item,annotator,width,height,rle,label"]
    for k, masks in enumerate(images):
        for a, m in enumerate(masks):
            lines.append(f"img{k},r{a},{size},{size},{M.rle_to_string(M.encode(m))},object")
    text = "\n".join(lines)
    (report_s, report_cpu), report = timed(lambda: agreekit.masks(text), repeats)
    (dense_s, dense_cpu), _ = timed(lambda: [agreekit.staple(m) for m in images], repeats)
    d = report.to_dict()
    print(f"STAPLE, {n_images} images of {size} × {size} from {annotators} annotators "
          f"({len(text) / 1e6:.1f} MB of compressed RLE rows)")
    print(f"  mask report from RLE rows (parse, STAPLE, majority vote, IoU on runs)  "
          f"wall {report_s:6.2f} s   CPU {report_cpu:6.2f} s")
    print(f"  agreekit.staple on dense boolean arrays                                "
          f"wall {dense_s:6.2f} s   CPU {dense_cpu:6.2f} s")
    print(f"  mean Dice vs consensus {d['mean_dice']['value']:.4f}, vs majority "
          f"{d['mean_majority_dice']['value']:.4f}; all converged: {all(e['converged'] for e in d['items'])}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--polygons", type=int, default=2000)
    parser.add_argument("--vertices", type=int, default=20)
    parser.add_argument("--images", type=int, default=50)
    parser.add_argument("--size", type=int, default=1024)
    parser.add_argument("--shapely-pairs", type=int, default=100_000)
    args = parser.parse_args()
    polygon_benchmark(args.polygons, args.vertices, args.repeats, args.shapely_pairs)
    staple_benchmark(args.images, args.size, 5, args.repeats)


if __name__ == "__main__":
    main()
