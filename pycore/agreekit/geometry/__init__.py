"""Geometry: pure functions on arrays (IoU, GIoU and distances of boxes, polygons, cuboids,
intervals and run-length masks).  Nothing here knows about rows, annotators or reports."""
