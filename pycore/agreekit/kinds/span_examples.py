"""Examples of span disagreements for the report: which spans, and the text around them."""
from __future__ import annotations

import numpy as np

from ..measures.span_matching import EXACT, OUTCOMES

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


def item_examples(item, annotators, all_spans, offsets, score, limit=MAX_EXAMPLES):
    """The item's first ``limit`` disagreements, pair by pair, with plain-text context when texts are known.

    Per pair: matched pairs that are not exact, then spans marked only by A,
    then spans marked only by B.

    Parameters
    ----------
    item : agreekit.kinds.span_input.Item
    annotators : list of str
        The annotators scored, in the order of ``offsets``.
    all_spans : list of agreekit.kinds.span_input.Span
        Their spans, annotator k's at ``offsets[k]:offsets[k+1]``.
    offsets : list of int
    score : agreekit.measures.span_outcomes.ItemScore
        The item's five-way matches.
    limit : int

    Returns
    -------
    list of dict
        ``{a, b, outcome, span_a, span_b, context}``; a span is
        ``{start, end, label, line}`` (and ``text`` when known), None on the
        side that marked nothing.
    """
    m = len(annotators)
    owner = np.repeat(np.arange(m), np.diff(offsets))
    pair_of = np.full((m, m), -1, dtype=np.intp)
    for p, (i, j) in enumerate(score.pairs):
        pair_of[i, j] = p
    # Candidates as (pair, outcome code, span, partner); per pair, codes sort matched < missed_a < missed_b.
    inexact = score.outcome != EXACT
    matched_with = np.zeros((len(owner), m), dtype=bool)
    matched_with[score.rows, owner[score.cols]] = True
    matched_with[score.cols, owner[score.rows]] = True
    lonely, other = np.nonzero(~matched_with & (owner[:, None] != np.arange(m)[None, :]))
    pair = np.concatenate([score.pair[inexact],
                           pair_of[np.minimum(owner[lonely], other), np.maximum(owner[lonely], other)]])
    code = np.concatenate([score.outcome[inexact], np.where(owner[lonely] < other, MISSED_A, MISSED_B)])
    span = np.concatenate([score.rows[inexact], lonely])
    partner = np.concatenate([score.cols[inexact], np.full(len(lonely), -1)])
    order = np.lexsort((span, code >= 4, pair))[:limit]
    out = []
    for p, kind, r, c in zip(pair[order].tolist(), code[order].tolist(), span[order].tolist(),
                             partner[order].tolist()):
        i, j = score.pairs[p]
        if c >= 0:
            sa, sb = _span_dict(item.text, all_spans[r]), _span_dict(item.text, all_spans[c])
            lo, hi = min(sa["start"], sb["start"]), max(sa["end"], sb["end"])
        else:
            lone = _span_dict(item.text, all_spans[r])
            sa, sb = (lone, None) if kind == MISSED_A else (None, lone)
            lo, hi = lone["start"], lone["end"]
        out.append({"a": annotators[i], "b": annotators[j], "outcome": OUTCOMES[kind],
                    "span_a": sa, "span_b": sb, "context": context(item.text, lo, hi)})
    return out
