"""The declared shape of a polygons report: the object report (:func:`.common.object_report`) counting polygons."""
from ...report_shape import key
from ...shared_shapes import object_report

SHAPE = object_report(key("n_polygons", "integer",
                          "Polygons drawn on the compared items ('drew nothing' rows not counted)."))
