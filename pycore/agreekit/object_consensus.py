"""A consensus of annotators without gold: matched objects clustered across annotators, then fused.

The rule (``docs/consensus.md``), for any kind that gives a
:class:`~agreekit.registry.ConsensusHook`:

1. **Voters.**  Every annotator votes; it *saw* an item when it has any row
   on it.  Annotators whose rows are identical (the same multiset of item,
   geometry and label, "saw nothing" rows included: the same export twice, a
   copied account) are named in a warning and are left out together: leaving
   one out leaves out its copies, so a copy cannot vote for its twin.
2. **Pairs.**  On each item, every pair of voters is matched one-to-one at the
   threshold (:func:`agreekit.matching.match`, ``optimal``: most matches, then
   total similarity).
3. **Clusters.**  The matched pairs of the item, strongest first (similarity
   descending, then the two objects' content), each join the clusters of their
   two objects unless the union would hold two objects of one voter: single
   linkage of the pairwise optimal matches under a cannot-link constraint per
   voter.  An object no pair matched is a cluster of one.
4. **Quorum.**  A cluster enters the consensus when its support (the voters
   who drew a member) reaches ``quorum``; by default when the members' weight
   is a strict majority of the weight of the voters who saw the item (with
   equal weights: more than half of them).
5. **Fusion.**  The kind's ``fuse`` of the members' geometries (weighted by
   their voters), the weighted majority label (ties to the smallest label
   text), the support, and the spread: the members' mean of 1 − similarity to
   the fused object.

Leaving voters out (``excluded``) drops their objects and their pairs before
step 3; the pairwise matchings of the others do not change, so they are
computed once (:func:`prepare`) and every leave-one-out consensus reuses them.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import options as opts
from .arrays import name_list
from .errors import InputError
from .object_blocks import pair_matcher
from .registry import KINDS, get


@dataclass(frozen=True)
class ConsensusObject:
    """One fused object of the consensus."""

    item: str
    geometry: object     # the kind's geometry (a box: x, y, w, h)
    label: str
    support: int         # voters who drew a member
    n_voters: int        # voters who saw the item (the quorum's base)
    spread: float        # mean of 1 − similarity between each member and the fused object
    annotators: tuple    # the annotators who drew a member

    def to_dict(self):
        geometry = self.geometry if not isinstance(self.geometry, np.ndarray) else self.geometry.tolist()
        return {"item": self.item, "geometry": geometry, "label": self.label, "support": self.support,
                "n_voters": self.n_voters, "spread": self.spread, "annotators": list(self.annotators)}


@dataclass(frozen=True)
class ItemVotes:
    """One item's objects, who drew them and the pairwise matches among them (computed once)."""

    item: str
    voters: tuple            # voter indices that saw the item
    geometries: list
    labels: list
    owner: list              # voter index of each object
    edges: list              # matched pairs (i, j), strongest first


@dataclass(frozen=True)
class Prepared:
    """Every item's :class:`ItemVotes`, the voters (annotators) and the hook."""

    items: list
    voters: list             # annotator names, sorted: voter index → name
    voter_of: dict           # annotator name → voter index
    copies: list             # voter index → frozenset of the voters with identical rows (itself included)
    hook: object
    threshold: float
    warnings: tuple


def identical_groups(records, key):
    """Groups of annotators with identical rows: ``[(name, …), …]``, each sorted, in sorted order.

    Annotators who drew nothing at all are never grouped: two people who each saw an
    image and found nothing on it are not a copied account.
    """
    content = {}
    for r in records:
        geometry = None if r.geometry is None else key(r.geometry)
        content.setdefault(r.annotator, []).append((r.item, geometry is not None, geometry or (),
                                                    "" if r.label is None else str(r.label)))
    by_content = {}
    for name, rows in content.items():
        drew = any(row[1] for row in rows)
        by_content.setdefault(tuple(sorted(rows)) if drew else name, []).append(name)
    return sorted(tuple(sorted(names)) for names in by_content.values())


def _object_key(hook, geometry, label):
    return hook.key(geometry), label


def _item_votes(item, drawn, seen, hook, threshold):
    """The :class:`ItemVotes` of one item: ``drawn`` {voter: [(geometry, label)]} in canonical order."""
    voters = tuple(sorted(seen))
    geometries, labels, owner, spans = [], [], [], {}
    for v in voters:
        objects = sorted(drawn.get(v, []), key=lambda o: _object_key(hook, *o))
        spans[v] = np.arange(len(geometries), len(geometries) + len(objects))
        geometries += [g for g, _ in objects]
        labels += [lab for _, lab in objects]
        owner += [v] * len(objects)
    first = {}  # label → code, so that equal codes are equal labels (the tie-break of the matching)
    codes = np.array([first.setdefault(label, len(first)) for label in labels], dtype=np.intp)
    matches = match_objects(hook, geometries, codes, threshold)
    edges, similarity = [], []
    for x, a in enumerate(voters):
        for b in voters[x + 1:]:
            ia, ib = spans[a], spans[b]
            if not ia.size or not ib.size:
                continue
            rows, cols, sim = matches(ia, ib)
            edges += [(int(ia[r]), int(ib[c])) for r, c in zip(rows.tolist(), cols.tolist())]
            similarity += np.asarray(sim, dtype=float).tolist()
    keys = [_object_key(hook, g, lab) for g, lab in zip(geometries, labels)]
    order = sorted(range(len(edges)), key=lambda k: (-similarity[k], min(keys[edges[k][0]], keys[edges[k][1]]),
                                                     max(keys[edges[k][0]], keys[edges[k][1]])))
    return ItemVotes(item, voters, geometries, labels, owner, [edges[k] for k in order])


def match_objects(hook, geometries, codes, threshold):
    """``matches(rows, cols) -> (r, c, similarity)``: the ``optimal`` matches of ``geometries[rows]`` ×
    ``geometries[cols]`` at ``threshold`` (:func:`agreekit.object_blocks.pair_matcher`), block by block
    on a large item when the kind gives ``hook.blocks``; ``codes``: label codes (the tie-break) or None."""
    object_kind = None if hook.blocks is None else (lambda: hook.blocks(geometries))
    square = (lambda: hook.similarity(geometries)) if geometries else (lambda: np.zeros((0, 0)))
    return pair_matcher(len(geometries), square, object_kind, codes, threshold)


def prepare(records, hook, threshold):
    """Group ``records`` (:class:`~agreekit.object_sets.Annotation`) by item and voter and match the pairs."""
    groups = identical_groups(records, hook.key)
    names = sorted(name for group in groups for name in group)
    voter_of = {name: v for v, name in enumerate(names)}
    copies = [None] * len(names)
    for group in groups:
        for name in group:
            copies[voter_of[name]] = frozenset(voter_of[n] for n in group)
    drawn, seen, order = {}, {}, []
    for r in records:
        if r.item not in seen:
            order.append(r.item)
        seen.setdefault(r.item, set()).add(voter_of[r.annotator])
        if r.geometry is not None:
            label = "" if r.label is None else str(r.label)
            drawn.setdefault(r.item, {}).setdefault(voter_of[r.annotator], []).append((r.geometry, label))
    items = [_item_votes(item, drawn.get(item, {}), seen[item], hook, threshold) for item in sorted(order)]
    warnings = tuple(f"annotators with identical rows (left out together when one is left out): {name_list(group)}"
                     for group in groups if len(group) > 1)
    return Prepared(items, names, voter_of, copies, hook, threshold, warnings)


def clusters(votes, excluded=frozenset()):
    """The item's clusters without the voters ``excluded``: lists of object indices (see step 3)."""
    owner = votes.owner
    parent = list(range(len(owner)))
    mask = [0 if v in excluded else 1 << v for v in owner]  # the voters in each root's cluster, as bits

    def root(k):
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    for i, j in votes.edges:
        if not mask[i] or not mask[j]:
            continue
        ri, rj = root(i), root(j)
        if ri == rj or mask[ri] & mask[rj]:
            continue
        parent[rj] = ri
        mask[ri] |= mask[rj]
    groups = {}
    for k, v in enumerate(owner):
        if v not in excluded:
            groups.setdefault(root(k), []).append(k)
    return list(groups.values())


def weighted_median(values, weights):
    """The weighted median of each column of ``values`` (n rows of d numbers), a list of d numbers.

    The smallest value whose cumulative weight reaches half the total; when it
    reaches exactly half, the mean of it and the next value, so equal weights
    give the textbook median (:func:`numpy.median`).  Plain Python: clusters
    are small, and numpy's per-call cost would dominate.
    """
    rows = [[float(v) for v in row] for row in values]
    weights = [float(w) for w in weights]
    if len(rows) == 1:
        return rows[0]
    half = sum(weights) / 2.0
    tolerance = 1e-12 * max(1.0, half)
    out = []
    for column in zip(*rows):
        ordered = sorted(zip(column, weights))
        cumulative = 0.0
        for k, (value, weight) in enumerate(ordered):
            cumulative += weight
            if cumulative >= half - tolerance:
                if abs(cumulative - half) <= tolerance and k + 1 < len(ordered):
                    value = (value + ordered[k + 1][0]) / 2.0
                out.append(value)
                break
    return out


def weighted_mean(values, weights):
    """The weighted mean of each column of ``values`` (n rows of d numbers), as a tuple; when a row equals
    it (as when every row is the same) that row is returned as given, so identical members fuse to
    themselves without rounding."""
    rows = [tuple(float(v) for v in row) for row in values]
    weights = [float(w) for w in weights]
    total = sum(weights)
    mean = tuple(sum(w * v for w, v in zip(weights, column)) / total for column in zip(*rows))
    if len(set(rows)) == 1:
        return rows[0]
    return next((row for row in rows if row == mean), mean)


def majority_label(labels, weights):
    """The label of the largest total weight; ties go to the smallest label text."""
    totals = {}
    for label, weight in zip(labels, weights):
        totals[label] = totals.get(label, 0.0) + float(weight)
    best = max(totals.values())
    return min(label for label, total in totals.items() if total >= best - 1e-12)


def _fused(votes, members, weights, hook, spread):
    """The :class:`ConsensusObject` fields of one cluster: geometry, label, spread (NaN unless ``spread``)."""
    member_weights = [weights[votes.owner[k]] for k in members]
    if not sum(member_weights) > 0:
        member_weights = [1.0] * len(members)
    geometries = [votes.geometries[k] for k in members]
    geometry = hook.fuse(geometries, member_weights)
    labels = [votes.labels[k] for k in members]
    label = labels[0] if len(set(labels)) == 1 else majority_label(labels, member_weights)
    if not spread:
        return geometry, label, float("nan")
    to_fused = np.asarray(hook.similarity([geometry] + geometries), dtype=float)[0, 1:]
    return geometry, label, float(np.mean(1.0 - to_fused))


def item_consensus(votes, prepared, excluded=frozenset(), weights=None, quorum=None, spread=True):
    """The consensus objects of one item without the voters ``excluded`` (None: nobody else saw it).

    ``weights`` (a list, one per voter, default 1) weigh the votes for membership
    and the fusion; ``quorum`` (an int) asks for that many supporting voters
    instead of the weighted strict majority; ``spread=False`` skips the spreads
    (NaN), which ranking does not use.
    """
    voters = [v for v in votes.voters if v not in excluded]
    if not voters:
        return None
    if weights is None:
        weights = [1.0] * len(prepared.voters)
    seen_weight = sum(weights[v] for v in voters)
    out = []
    for members in clusters(votes, excluded):
        owners = [votes.owner[k] for k in members]  # distinct: a cluster holds one object per voter
        if quorum is not None:
            if len(owners) < quorum:
                continue
        elif not sum(weights[v] for v in owners) > seen_weight / 2.0 + 1e-12:
            continue
        geometry, label, dispersion = _fused(votes, members, weights, prepared.hook, spread)
        names = tuple(prepared.voters[v] for v in sorted(owners))
        out.append(ConsensusObject(votes.item, geometry, label, len(owners), len(voters), dispersion, names))
    out.sort(key=lambda o: (prepared.hook.key(o.geometry), o.label))
    return out


def build(prepared, excluded=frozenset(), weights=None, quorum=None):
    """``{item: [ConsensusObject]}`` for every item some voter outside ``excluded`` saw."""
    out = {}
    for votes in prepared.items:
        objects = item_consensus(votes, prepared, excluded, weights, quorum)
        if objects is not None:
            out[votes.item] = objects
    return out


@dataclass(frozen=True)
class ConsensusResult:
    """A consensus as rows the kind's report reads (one annotator, ``annotator``), and its objects."""

    kind: str
    annotator: str       # the name the rows give the consensus
    rows: tuple          # dicts in the kind's columns; an item with no consensus object has a "saw nothing" row
    objects: tuple       # :class:`ConsensusObject`, by item
    threshold: float
    quorum: object       # the int asked for, or None (weighted strict majority)
    excluded: tuple      # annotators left out (the one asked for and its identical copies)
    duplicates: tuple    # groups of annotators with identical rows
    warnings: tuple

    def to_dict(self):
        return {"kind": self.kind, "annotator": self.annotator, "rows": [dict(r) for r in self.rows],
                "objects": [o.to_dict() for o in self.objects], "threshold": self.threshold,
                "quorum": self.quorum, "excluded": list(self.excluded),
                "duplicates": [list(g) for g in self.duplicates], "warnings": list(self.warnings)}


def consensus_hook(kind):
    """The kind's :class:`~agreekit.registry.ConsensusHook`, or an :class:`InputError` naming those that have one."""
    hook = get(kind).consensus
    if hook is None:
        able = [name for name, k in KINDS.items() if k.consensus is not None]
        raise InputError(f"no consensus for {kind}; kinds with one: {', '.join(able)}", column="kind", value=kind)
    return hook


def check_quorum(quorum):
    """``quorum`` as an int ≥ 1, or None (the weighted strict majority)."""
    if quorum is None:
        return None
    option = opts.Option("quorum", "int", "quorum", minimum=1, maximum=1_000_000)
    return opts.check_value(option, quorum)


def read(kind, rows, kind_options):
    """``(hook, Prepared)`` of ``rows`` with the kind's options checked as its report checks them."""
    hook = consensus_hook(kind)
    used = [option for option in get(kind).options if option.name in hook.options]
    checked = opts.check(used, kind_options, f"the consensus of {kind}")
    records, threshold, warnings = hook.read(rows, **checked)
    prepared = prepare(records, hook, threshold)
    return hook, Prepared(prepared.items, prepared.voters, prepared.voter_of, prepared.copies, hook, threshold,
                          tuple(warnings) + prepared.warnings)


def excluded_voters(prepared, exclude_annotator):
    """The voter of ``exclude_annotator`` and its identical copies (empty for None); unknown names are an
    InputError."""
    if exclude_annotator is None:
        return frozenset()
    if exclude_annotator not in prepared.voter_of:
        raise InputError(f"exclude_annotator {exclude_annotator!r} is not an annotator of these rows",
                         column="exclude_annotator", value=exclude_annotator)
    return prepared.copies[prepared.voter_of[exclude_annotator]]


def item_rows(hook, item, annotator, objects):
    """The rows of one item's consensus ``objects``: one per object, or one "saw nothing" row (none for a
    kind without such rows, whose ``to_row`` gives None)."""
    rows = [hook.to_row(item, annotator, o.geometry, o.label) for o in objects] or \
        [hook.to_row(item, annotator, None, "")]
    return [row for row in rows if row is not None]


PARAMETERS = {
    "{kind}": "kind : str\n        A registered kind with a consensus hook.",
    "{rows}": "rows : str or list of dict\n        The kind's rows.",
    "{quorum}": "quorum : int, optional\n        Supporting voters an object needs; default a strict majority of "
                "those who saw the item.",
    "{kind_options}": "**kind_options\n        The kind's report options (``threshold``, …), checked as the "
                      "report checks them.",
}


def shared_parameters(function):
    """``function`` with the markers of its Parameters section (``{kind}``, ``{rows}``, ``{quorum}``,
    ``{kind_options}``) replaced by :data:`PARAMETERS`: the consensus and the ranking take them alike."""
    for marker, text in PARAMETERS.items():
        function.__doc__ = function.__doc__ and function.__doc__.replace(marker, text)
    return function


@shared_parameters
def consensus_rows(kind, rows, *, quorum=None, exclude_annotator=None, annotator="consensus", weights=None,
                   **kind_options):
    """The consensus of ``rows`` (see the module docstring) as a :class:`ConsensusResult`.

    Parameters
    ----------
    {kind}
    {rows}
    {quorum}
    exclude_annotator : str, optional
        Build the consensus of the others (leave-one-out); identical copies of it are left out too.
    annotator : str
        The annotator name of the consensus rows.
    weights : dict, optional
        ``{annotator: weight ≥ 0}`` for the votes and the fusion (default 1 each).
    {kind_options}
    """
    quorum = check_quorum(quorum)
    hook, prepared = read(kind, rows, kind_options)
    excluded = excluded_voters(prepared, exclude_annotator)
    voter_weights = None
    if weights is not None:
        voter_weights = [float(weights.get(name, 1.0)) for name in prepared.voters]
        if any(not w >= 0 or w == float("inf") for w in voter_weights):
            raise InputError("weights must be finite numbers ≥ 0", column="weights")
    fused = build(prepared, excluded, voter_weights, quorum)
    out_rows, objects = [], []
    for item in sorted(fused):
        objects += fused[item]
        out_rows += item_rows(hook, item, annotator, fused[item])
    names = tuple(prepared.voters[v] for v in sorted(excluded))
    duplicates = tuple(sorted({tuple(prepared.voters[v] for v in sorted(c)) for c in prepared.copies if len(c) > 1}))
    return ConsensusResult(kind, annotator, tuple(out_rows), tuple(objects), prepared.threshold, quorum, names,
                           duplicates, prepared.warnings)


def leave_one_out_rows(kind, rows, *, quorum=None, annotator="consensus", **kind_options):
    """``{annotator: rows}``: for each annotator, the consensus of the others (its identical copies left out
    too) on the items it saw, as rows of the kind, matched once for all.

    Each value equals the rows of :func:`consensus_rows` ``(kind, rows, exclude_annotator=name)`` on the
    items that annotator saw (items nobody else saw have none): the gold rows of ``reference="consensus"``.
    """
    return leave_one_out(kind, rows, quorum=quorum, annotator=annotator, **kind_options)[0]


def leave_one_out(kind, rows, *, quorum=None, annotator="consensus", **kind_options):
    """``({annotator: rows}, warnings)``: :func:`leave_one_out_rows` and the consensus's warnings (the
    annotators with identical rows among them)."""
    quorum = check_quorum(quorum)
    hook, prepared = read(kind, rows, kind_options)
    out = {}
    for v, name in enumerate(prepared.voters):
        found = []
        for votes in prepared.items:
            if v in votes.voters:
                objects = item_consensus(votes, prepared, prepared.copies[v], None, quorum, spread=False)
                found += item_rows(hook, votes.item, annotator, objects) if objects is not None else []
        out[name] = tuple(found)
    return out, prepared.warnings
