"""Kinds of annotation: rows in, a :class:`~agreekit.report.Report` out, one short module each.

Every module here registers its report function with :func:`agreekit.registry.register`;
:func:`agreekit.registry.load_kinds` imports them all.
"""
