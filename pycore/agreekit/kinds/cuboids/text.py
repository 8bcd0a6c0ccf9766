"""The cuboids kind's command-line text: the object-engine report's, counting cuboids."""
from __future__ import annotations

from ...object_text import object_text


def cuboids_text(report):
    """The cuboids report as text (:func:`agreekit.object_text.object_text`)."""
    return object_text(report, "cuboids")
