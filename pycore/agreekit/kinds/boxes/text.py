"""The boxes kind's command-line text: the object-engine report's, counting boxes."""
from __future__ import annotations

from ...object_text import object_text


def boxes_text(report):
    """The boxes report as text (:func:`agreekit.object_text.object_text`)."""
    return object_text(report, "boxes")
