"""Examples of span disagreements for the report: which spans, and the text around them."""
from __future__ import annotations

import numpy as np

from ...measures.span_matching import EXACT, OUTCOMES

MAX_EXAMPLES = 10  # disagreement examples kept per item: the report must stay small enough for a page
CONTEXT_CHARS = 30  # characters of text shown on each side of an example
MISSED_A, MISSED_B = OUTCOMES.index("missed_a"), OUTCOMES.index("missed_b")


def context(text, start, end):
    """A plain-text snippet around ``[start, end)``: the text itself, never markup.

    Parameters
    ----------
    text : str or None
        The item's text.
    start, end : int
        Character offsets.

    Returns
    -------
    str or None
        ``CONTEXT_CHARS`` characters on each side, line breaks and tabs as
        spaces, "…" where the text goes on; None without a text.
    """
    if text is None:
        return None
    lo = max(0, min(start, len(text)) - CONTEXT_CHARS)
    hi = min(len(text), end + CONTEXT_CHARS)
    snippet = text[lo:hi].replace("\r", " ").replace("\n", " ").replace("\t", " ")
    return ("…" if lo > 0 else "") + snippet + ("…" if hi < len(text) else "")


def _span_dict(text, span):
    out = {"start": span.start, "end": span.end, "label": span.label, "line": span.line}
    if text is not None:
        out["text"] = text[span.start:span.end]
    return out


def _example(item, annotators, all_spans, i, j, kind, span, partner):
    """One disagreement of annotators i and j: a matched pair (partner ≥ 0) or a span left alone."""
    if partner >= 0:
        sa, sb = _span_dict(item.text, all_spans[span]), _span_dict(item.text, all_spans[partner])
        lo, hi = min(sa["start"], sb["start"]), max(sa["end"], sb["end"])
    else:
        lone = _span_dict(item.text, all_spans[span])
        sa, sb = (lone, None) if kind == MISSED_A else (None, lone)
        lo, hi = lone["start"], lone["end"]
    return {"a": annotators[i], "b": annotators[j], "outcome": OUTCOMES[kind],
            "span_a": sa, "span_b": sb, "context": context(item.text, lo, hi)}


def pair_examples(item, annotators, all_spans, offsets, scores, limit=MAX_EXAMPLES):
    """The first ``limit`` disagreements of a block of pairs, pair by pair, with plain-text context when texts are known.

    Per pair: matched pairs that are not exact, then spans marked only by A,
    then spans marked only by B, each in span order.  Blocks come in pair
    order, so an item's examples are those of its first blocks.

    Parameters
    ----------
    item : agreekit.kinds.spans.rows.Item
    annotators : list of str
        The annotators scored, in the order of ``offsets``.
    all_spans : list of agreekit.kinds.spans.rows.Span
        Their spans, annotator k's at ``offsets[k]:offsets[k+1]``.
    offsets : list of int
    scores : agreekit.measures.span_outcomes.PairScores
        A block of the item's pairs with their five-way matches.
    limit : int

    Returns
    -------
    list of dict
        ``{a, b, outcome, span_a, span_b, context}``; a span is
        ``{start, end, label, line}`` (and ``text`` when known), None on the
        side that marked nothing.
    """
    out = []
    for p in np.flatnonzero(scores.counts[:, EXACT + 1:].sum(axis=1) > 0).tolist():
        if len(out) >= limit:
            break
        i, j = int(scores.first[p]), int(scores.second[p])
        in_pair = scores.pair == p
        rows, cols, outcome = scores.rows[in_pair], scores.cols[in_pair], scores.outcome[in_pair]
        inexact = np.flatnonzero(outcome != EXACT)
        inexact = inexact[np.argsort(rows[inexact], kind="stable")]
        candidates = ([(int(outcome[k]), int(rows[k]), int(cols[k])) for k in inexact]
                      + [(MISSED_A, r, -1) for r in np.setdiff1d(np.arange(offsets[i], offsets[i + 1]), rows).tolist()]
                      + [(MISSED_B, c, -1) for c in np.setdiff1d(np.arange(offsets[j], offsets[j + 1]), cols).tolist()])
        out += [_example(item, annotators, all_spans, i, j, kind, span, partner)
                for kind, span, partner in candidates[:limit - len(out)]]
    return out
