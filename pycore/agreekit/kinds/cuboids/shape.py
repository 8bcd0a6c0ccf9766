"""The declared shape of a cuboids report: the object report (:func:`.common.object_report`) counting cuboids."""
from ...report_shape import key
from ...shared_shapes import object_report

SHAPE = object_report(key("n_cuboids", "integer",
                          "Cuboids drawn on the compared items ('drew nothing' rows not counted)."))
