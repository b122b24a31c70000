# cython: language_level=3
"""Small inline helpers shared by the compiled tree loops (_kernels.pyx, _star1.pyx)."""

from cpython.array cimport array, resize_smart
from cpython.long cimport PyLong_AsSsize_t
from cpython.object cimport PyObject

cdef extern from *:
    """
    /* CPython's range object (Objects/rangeobject.c; the same from 3.2 to 3.13): its first
       item, step and length, read without making an int object for any of them. */
    typedef struct {
        PyObject_HEAD
        PyObject *start;
        PyObject *stop;
        PyObject *step;
        PyObject *length;
    } arbiter_range;
    """
    ctypedef struct arbiter_range:
        PyObject* start
        PyObject* step
        PyObject* length


cdef inline Py_ssize_t range_start(object kids) except? -1:
    """The first item of ``kids``, a ``range``."""
    return PyLong_AsSsize_t(<object>(<arbiter_range*><PyObject*>kids).start)


cdef inline Py_ssize_t range_step(object kids) except? -1:
    """The step of ``kids``, a ``range``."""
    return PyLong_AsSsize_t(<object>(<arbiter_range*><PyObject*>kids).step)


cdef inline Py_ssize_t range_length(object kids) except? -1:
    """The length of ``kids``, a ``range``."""
    return PyLong_AsSsize_t(<object>(<arbiter_range*><PyObject*>kids).length)


cdef inline int push(array column, long long value) except -1:
    """Append ``value`` to an ``array('q')`` (grown a block at a time)."""
    cdef Py_ssize_t size = len(column)
    resize_smart(column, size + 1)
    column.data.as_longlongs[size] = value
    return 0
