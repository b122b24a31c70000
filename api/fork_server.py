"""Imported by multiprocessing's fork server, and by it alone (``set_forkserver_preload``
in :mod:`api.isolation`): it builds and warms the app that every request's process, forked
from the fork server, serves (:mod:`api.compute`)."""

from api import compute

compute.preload()
