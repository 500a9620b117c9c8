"""Reads from the platform into canonical frames (the loaders' schemas), so sheets and platform compare.

``roomrates`` (rooms and rate plans per property), ``registry`` (those frames as a
:class:`loaders.Registry`) and ``rooms`` (room types, sub-rooms and amenities from
OTA_HotelDescriptiveInfo). Message parsing lives in ``workbench.ota``; bytes move through
``workbench.transport``.
"""
