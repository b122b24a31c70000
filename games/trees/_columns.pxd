# cython: language_level=3
"""Small inline helpers shared by the compiled tree loops (the reader, analysis/trees/_kernels.pyx
and _star1.pyx)."""

from cpython.array cimport array, resize_smart
from cpython.long cimport PyLong_AsSsize_t
from cpython.object cimport PyObject
from cpython.ref cimport Py_DECREF, Py_INCREF
from libc.stdint cimport int64_t, uint64_t
from libc.stdlib cimport calloc, free, malloc

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

    /* A new range(start, start + count) (step 1), its fields set as range() sets them but
       without parsing arguments or working out the length in Python integers: the readers
       make one per internal node. */
    static PyObject* arbiter_new_range(Py_ssize_t start, Py_ssize_t count) {
        PyObject* first = PyLong_FromSsize_t(start);
        PyObject* stop = PyLong_FromSsize_t(start + count);
        PyObject* step = PyLong_FromLong(1);
        PyObject* length = PyLong_FromSsize_t(count);
        arbiter_range* made = NULL;
        if (first && stop && step && length)
            made = PyObject_New(arbiter_range, &PyRange_Type);
        if (made == NULL) {
            Py_XDECREF(first);
            Py_XDECREF(stop);
            Py_XDECREF(step);
            Py_XDECREF(length);
            return NULL;
        }
        made->start = first;
        made->stop = stop;
        made->step = step;
        made->length = length;
        return (PyObject*)made;
    }

    /* Copy 32 bytes from src to dst, which may overlap: both loads before the stores, each a
       copy of constant size that the compiler makes plain moves (a call of memcpy is most of
       the cost of so short a copy, a default id's). */
    static inline void arbiter_copy_32(char* dst, const char* src) {
        char held[32];
        memcpy(held, src, 32);
        memcpy(dst, held, 32);
    }
    """
    ctypedef struct arbiter_range:
        PyObject* start
        PyObject* step
        PyObject* length
    object new_range "arbiter_new_range" (Py_ssize_t start, Py_ssize_t count)
    void copy_32 "arbiter_copy_32" (char* dst, const char* src) noexcept


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


# -- numbers as objects, each made once -------------------------------------------------------

cdef struct Interned:  # an open-addressing table: number -> an object kept for it (owned)
    int64_t* numbers
    PyObject** objects
    Py_ssize_t capacity  # a power of 2
    Py_ssize_t used


cdef inline Py_ssize_t slot_of(int64_t number, Py_ssize_t capacity) noexcept:
    return <Py_ssize_t>((<uint64_t>number * 0x9E3779B97F4A7C15ULL) >> 20) & (capacity - 1)


cdef inline int interned_grow(Interned* t) except -1:
    cdef Py_ssize_t old = t.capacity, capacity = old * 2 if old else 1024, i, j
    cdef int64_t* numbers = <int64_t*>malloc(capacity * sizeof(int64_t))
    cdef PyObject** objects = <PyObject**>calloc(capacity, sizeof(PyObject*))
    if numbers == NULL or objects == NULL:
        free(numbers)
        free(objects)
        raise MemoryError()
    for i in range(old):
        if t.objects[i] != NULL:
            j = slot_of(t.numbers[i], capacity)
            while objects[j] != NULL:
                j = (j + 1) & (capacity - 1)
            numbers[j] = t.numbers[i]
            objects[j] = t.objects[i]
    free(t.numbers)
    free(t.objects)
    t.numbers, t.objects, t.capacity = numbers, objects, capacity
    return 0


cdef inline PyObject* table_find(Interned* t, int64_t number) noexcept:
    """The object kept for ``number`` (borrowed), or NULL."""
    cdef Py_ssize_t j
    if t.capacity == 0:
        return NULL
    j = slot_of(number, t.capacity)
    while t.objects[j] != NULL:
        if t.numbers[j] == number:
            return t.objects[j]
        j = (j + 1) & (t.capacity - 1)
    return NULL


cdef inline object table_put(Interned* t, int64_t number, object made):
    """Keep ``made`` for ``number`` (not yet in the table); returns it."""
    cdef Py_ssize_t j
    if 2 * (t.used + 1) > t.capacity:
        interned_grow(t)
    j = slot_of(number, t.capacity)
    while t.objects[j] != NULL:
        j = (j + 1) & (t.capacity - 1)
    Py_INCREF(made)
    t.numbers[j] = number
    t.objects[j] = <PyObject*>made
    t.used += 1
    return made


cdef inline object interned(Interned* t, int64_t number):
    """``number`` as an int object, the same one each time (a million keys would otherwise
    be a million objects to make and free)."""
    cdef PyObject* found = table_find(t, number)
    if found != NULL:
        return <object>found
    return table_put(t, number, number)


cdef inline void interned_free(Interned* t) noexcept:
    cdef Py_ssize_t i
    for i in range(t.capacity):
        if t.objects[i] != NULL:
            Py_DECREF(<object>t.objects[i])
    free(t.numbers)
    free(t.objects)
    t.numbers = NULL
    t.objects = NULL
    t.capacity = t.used = 0
