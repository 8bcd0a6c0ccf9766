"""The declared shape of a boxes report: the object report (:func:`.common.object_report`) counting boxes."""
from ...report_shape import key
from ...shared_shapes import object_report

SHAPE = object_report(key("n_boxes", "integer",
                          "Boxes drawn on the compared items ('drew nothing' rows not counted)."))
