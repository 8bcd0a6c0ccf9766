"""Kinds of annotation: rows in, a :class:`~agreekit.results.Report` out, one short module each.

Each kind's module (``boxes``, ``spans``, ``segments``, ``polygons``, ``masks``,
``cuboids``, ``traces``) registers its report function with
:func:`agreekit.registry.register`; the package imports every module here.
``span_input`` and ``span_examples`` are the spans kind's input reading and
example formatting, split off to keep each module one concern.
"""
