/* ifxwire._speedups, part "dictmaker": dict_row's dicts made by copying a template (DictMaker),
 * and the template kept between calls. Included once, in order, by _speedups.c (one translation
 * unit, so gcc inlines across the parts as it did in one file): not a header of its own. */

/* dict_row's dicts, made by copying a template (DictMaker).

   The public route, PyDict_New and one PyDict_SetItem per column, costs ~280 instructions a
   column (callgrind, CPython 3.11: a hash lookup, an insert, the first insert allocating the
   keys table, a resize past 5 columns). Copying a template dict {name: None} takes CPython's
   clone path (PyDict_Copy of a dict with no deleted entries: one allocation and a memcpy of
   the keys table, no hashing), but replacing each value through PyDict_SetItem still pays the
   lookup: measured, no cheaper than the public route. So where the dict layout is known
   (CPython 3.11 to 3.13 with the GIL: a combined table of str keys is a PyDictKeysObject
   header, dk_indices of 1 << dk_log2_index_bytes bytes, then {key, value} entries in
   insertion order) the values are written into the copy's entries directly, each column's
   entry index computed once per call. That layout is checked on a real copy of the template
   before it is relied on (dict_maker_check); anything unexpected, another Python, or a key
   that is not a str, and the public route is used. */
#if !defined(PYPY_VERSION) && !defined(Py_LIMITED_API) && !defined(Py_GIL_DISABLED) \
    && PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030E0000
#define IFX_DICT_FILL 1
typedef struct { /* CPython 3.11-3.13's struct _dictkeysobject (Include/internal/pycore_dict.h) */
    Py_ssize_t dk_refcnt;
    uint8_t dk_log2_size;
    uint8_t dk_log2_index_bytes;
    uint8_t dk_kind; /* DICT_KEYS_UNICODE = 1: every key a str, entries {key, value} */
    uint32_t dk_version;
    Py_ssize_t dk_usable;
    Py_ssize_t dk_nentries;
    char dk_indices[];
} KeysLayout;

typedef struct {
    PyObject *me_key;
    PyObject *me_value;
} StrEntry;

static inline KeysLayout *dict_keys_of(PyObject *d)
{
    return (KeysLayout *)((PyDictObject *)d)->ma_keys;
}

static inline StrEntry *dict_entries_of(KeysLayout *k)
{
    return (StrEntry *)(k->dk_indices + ((size_t)1 << k->dk_log2_index_bytes));
}
#endif

typedef struct {
    PyObject *keys;     /* the column names (tuple), borrowed */
    PyObject *template; /* {name: None}, NULL when the public route is used */
    Py_ssize_t *slot;   /* column i's value goes to entry slot[i] (a repeated name: the same) */
    Py_ssize_t unique;  /* entries of the template */
} DictMaker;

/* row_to_dict(keys, row) -> a new dict {keys[i]: row[i]} (the shorter of the two deciding
   the length, as dict(zip(keys, row))); NULL with an exception set. The public route. */
static PyObject *row_to_dict(PyObject *keys, PyObject *row)
{
    Py_ssize_t n = PyTuple_GET_SIZE(row), nkeys = PyTuple_GET_SIZE(keys);
    if (n > nkeys)
        n = nkeys;
    PyObject *d = PyDict_New();
    if (d == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (PyDict_SetItem(d, PyTuple_GET_ITEM(keys, i), PyTuple_GET_ITEM(row, i)) < 0) {
            Py_DECREF(d);
            return NULL;
        }
    }
    return d;
}

#ifdef IFX_DICT_FILL
/* 1 when a copy of m->template has the layout dict_maker_make writes into: a fresh combined
   str-keys table, index bytes as CPython sizes them, the entries the template's keys in
   column order, every value None. */
static int dict_maker_check(DictMaker *m)
{
    PyObject *c = PyDict_Copy(m->template);
    if (c == NULL)
        return -1;
    KeysLayout *k = dict_keys_of(c);
    int ok = PyDict_CheckExact(c) && ((PyDictObject *)c)->ma_values == NULL
             && (PyObject *)k != (PyObject *)dict_keys_of(m->template) && k->dk_refcnt == 1
             && k->dk_kind == 1 && k->dk_log2_size >= 3 && k->dk_log2_size < 32
             && ((PyDictObject *)c)->ma_used == m->unique && k->dk_nentries == m->unique
             && k->dk_usable >= 0 && m->unique <= ((Py_ssize_t)1 << k->dk_log2_size);
    if (ok) {
        int sz = k->dk_log2_size;
        ok = k->dk_log2_index_bytes == (sz < 8 ? sz : sz < 16 ? sz + 1 : sz + 2);
    }
    if (ok) {
        StrEntry *e = dict_entries_of(k);
        Py_ssize_t seen = 0;
        for (Py_ssize_t i = 0; ok && i < PyTuple_GET_SIZE(m->keys); i++) {
            if (m->slot[i] == seen) { /* a name's first column: its key object is the entry's */
                ok = e[seen].me_key == PyTuple_GET_ITEM(m->keys, i) && e[seen].me_value == Py_None;
                seen++;
            }
            else
                ok = m->slot[i] >= 0 && m->slot[i] < seen;
        }
        ok = ok && seen == m->unique;
    }
    Py_DECREF(c);
    return ok;
}
#endif

/* Prepares m for the column names ``keys``: the template and each column's entry, when the
   direct route is available; the public route otherwise. -1 with an exception set. */
static int dict_maker_init(DictMaker *m, PyObject *keys)
{
    m->keys = keys;
    m->template = NULL;
    m->slot = NULL;
    m->unique = 0;
#ifdef IFX_DICT_FILL
    Py_ssize_t n = PyTuple_GET_SIZE(keys);
    for (Py_ssize_t i = 0; i < n; i++)
        if (!PyUnicode_CheckExact(PyTuple_GET_ITEM(keys, i)))
            return 0;
    m->slot = PyMem_New(Py_ssize_t, n > 0 ? n : 1);
    PyObject *t = PyDict_New();
    if (m->slot == NULL || t == NULL)
        goto fail;
    /* First {name: its entry index}, which names each column's entry, then every value None. */
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *key = PyTuple_GET_ITEM(keys, i), *at = PyDict_GetItemWithError(t, key);
        if (at == NULL && PyErr_Occurred())
            goto fail;
        if (at == NULL) {
            PyObject *idx = PyLong_FromSsize_t(m->unique);
            if (idx == NULL || PyDict_SetItem(t, key, idx) < 0) {
                Py_XDECREF(idx);
                goto fail;
            }
            Py_DECREF(idx);
            m->slot[i] = m->unique++;
        }
        else
            m->slot[i] = PyLong_AsSsize_t(at);
    }
    for (Py_ssize_t i = 0; i < n; i++)
        if (PyDict_SetItem(t, PyTuple_GET_ITEM(keys, i), Py_None) < 0)
            goto fail;
    m->template = t;
    int ok = dict_maker_check(m);
    if (ok == 1)
        return 0;
    if (ok < 0)
        goto fail;
    Py_CLEAR(m->template);
    PyMem_Free(m->slot);
    m->slot = NULL;
    return 0;
fail:
    if (m->template == NULL)
        Py_XDECREF(t);
    Py_CLEAR(m->template);
    PyMem_Free(m->slot);
    m->slot = NULL;
    return -1;
#else
    return 0;
#endif
}

static void dict_maker_release(DictMaker *m)
{
    Py_CLEAR(m->template);
    PyMem_Free(m->slot);
    m->slot = NULL;
}

/* The dict {keys[i]: row[i]} for the tuple ``row``, as dict(zip(keys, row)). The direct
   route takes the row's values (with ``may_take``, from a tuple nothing else holds: it gives
   them up, its items left NULL) and tracks the dict for the cyclic GC when a value may need
   it, as PyDict_SetItem would. */
static PyObject *dict_maker_make(DictMaker *m, PyObject *row, int may_take)
{
#ifdef IFX_DICT_FILL
    Py_ssize_t n = PyTuple_GET_SIZE(row);
    if (m->template != NULL && n == PyTuple_GET_SIZE(m->keys)) {
        PyObject *d = PyDict_Copy(m->template);
        if (d == NULL)
            return NULL;
        KeysLayout *k = dict_keys_of(d);
        if (((PyDictObject *)d)->ma_values == NULL && k->dk_nentries == m->unique
            && k->dk_refcnt == 1) {
            StrEntry *e = dict_entries_of(k);
            int give = may_take && PyTuple_CheckExact(row) && Py_REFCNT(row) == 1, track = 0;
            for (Py_ssize_t i = 0; i < n; i++) {
                PyObject *v = PyTuple_GET_ITEM(row, i);
                if (give)
                    PyTuple_SET_ITEM(row, i, NULL);
                else
                    Py_INCREF(v);
                PyObject *old = e[m->slot[i]].me_value;
                e[m->slot[i]].me_value = v;
                Py_DECREF(old);
                if (!track && PyType_IS_GC(Py_TYPE(v)) && PyObject_IS_GC(v)
                    && (!PyTuple_CheckExact(v) || PyObject_GC_IsTracked(v)))
                    track = 1;
            }
            if (track && !PyObject_GC_IsTracked(d))
                PyObject_GC_Track(d);
            return d;
        }
        Py_DECREF(d);
    }
#endif
    return row_to_dict(m->keys, row);
}

/* 1 when dict_maker_make took every value out of ``row`` (the direct route, the tuple held
   by nobody else) and the row is an exact tuple of ``ncols`` (the decoder's length; the pure
   fallback's tuples may differ), all items NULL: decode_row may decode the next row into it.
   Whether the cyclic GC tracks it does not matter: it never reaches Python code, and a
   container the GC does not see only keeps what it holds alive. */
static int dict_maker_emptied(DictMaker *m, PyObject *row, Py_ssize_t ncols)
{
    if (m->template == NULL || !PyTuple_CheckExact(row) || Py_REFCNT(row) != 1
        || PyTuple_GET_SIZE(row) != ncols)
        return 0;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(row); i++)
        if (PyTuple_GET_ITEM(row, i) != NULL)
            return 0;
    return 1;
}

/* decode_dicts' maker for ``keys``: the decoder's kept one when it was made for this very
   tuple, moved out of the decoder while in use (a re-entrant call, from a converter's Python
   code, makes its own), else a new one. ``*owner`` gets a reference to keys. */
static int dict_maker_take(RowDecoder *self, PyObject *keys, DictMaker *m, PyObject **owner)
{
    if (self->dm_keys != NULL && self->dm_keys == keys) {
        m->keys = keys;
        m->template = self->dm_template;
        m->slot = self->dm_slot;
        m->unique = self->dm_unique;
        *owner = self->dm_keys;
        self->dm_keys = self->dm_template = NULL;
        self->dm_slot = NULL;
        return 0;
    }
    if (dict_maker_init(m, keys) < 0)
        return -1;
    *owner = Py_NewRef(keys);
    return 0;
}

static void dict_maker_drop_kept(RowDecoder *self)
{
    Py_CLEAR(self->dm_keys);
    Py_CLEAR(self->dm_template);
    PyMem_Free(self->dm_slot);
    self->dm_slot = NULL;
}

/* Gives the maker back to the decoder for the next call (replacing what it kept). */
static void dict_maker_keep(RowDecoder *self, DictMaker *m, PyObject *owner)
{
    if (owner == NULL)
        return;
    dict_maker_drop_kept(self);
    self->dm_keys = owner;
    self->dm_template = m->template;
    self->dm_slot = m->slot;
    self->dm_unique = m->unique;
    m->template = NULL;
    m->slot = NULL;
}

