"""The cuboids report's part of the methods paragraph (:mod:`agreekit.methods`): the object engine's sentences."""
from ...object_methods import object_methods

METHODS = object_methods("cuboids", "scenes", similarity="3D IoU")
