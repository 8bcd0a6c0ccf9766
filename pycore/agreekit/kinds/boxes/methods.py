"""The boxes report's part of the methods paragraph (:mod:`agreekit.methods`): the object engine's sentences."""
from ...object_methods import object_methods

METHODS = object_methods("boxes", "images", similarity="IoU")
