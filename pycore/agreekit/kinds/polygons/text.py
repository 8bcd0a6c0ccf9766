"""The polygons kind's command-line text: the object-engine report's, counting polygons."""
from __future__ import annotations

from ...object_text import object_text


def polygons_text(report):
    """The polygons report as text (:func:`agreekit.object_text.object_text`)."""
    return object_text(report, "polygons")
