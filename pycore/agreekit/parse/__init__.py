"""Text forms of geometry: reading the fields a row writes a shape in (RLE masks, polygon points).

Each parser returns arrays and raises :class:`~agreekit.errors.InputError` naming the line and
column; :mod:`agreekit.geometry` computes on the arrays and reads no text.
"""
