/* ifxwire._speedups, part "common": the includes, the column kinds and code sets, ColPlan and
 * RowDecoder, forced inlining and the big-endian readers: what every other part uses. Included
 * once, in order, by _speedups.c (one translation unit, so gcc inlines across the parts as it did
 * in one file): not a header of its own. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <datetime.h>
#include <math.h>
#include <stddef.h>
#include <structmember.h>
#include <stdint.h>
#include <string.h>

enum {
    K_SMALLINT = 0,
    K_INTEGER = 1,
    K_BIGINT = 2,
    K_INT8 = 3,
    K_FLOAT = 4,
    K_SMALLFLOAT = 5,
    K_DATE = 6,
    K_CHAR = 7,
    K_VARCHAR = 8,
    K_LVARCHAR = 9,
    K_BOOLEAN = 10,
    K_UDT = 11,
    K_BLOB = 12,
    K_CALL2 = 13,   /* fn(buf, pos) */
    K_CALL4 = 14,   /* fn(buf, pos, arg1, arg2) */
    K_DECIMAL = 15, /* DECIMAL/MONEY: fn is decimal.Decimal, arg1 the scale (255 = floating) */
    K_COMPLEX = 16, /* ROW/collection: i32 length + value; fn(buf, pos, end) decodes it;
                       arg1 (type table bytes, wrapper type) + width 2/4/8 enable the inline
                       path for collections of integers, arg2 their element type text */
    K_LAST = 16
};

enum { E_OTHER = 0, E_LATIN1 = 1, E_UTF8 = 2, E_ASCII = 3 };

/* BYTE/TEXT descriptors are 56 or 68 bytes (c->width); the NULL flag is bit 0 of byte 39. */
#define BLOB_NULL_BYTE 39

typedef struct {
    int kind;
    Py_ssize_t pos;   /* fixed layout: offset from the tuple start */
    Py_ssize_t width; /* fixed-width kinds: bytes on the wire */
    PyObject *fn;     /* K_CALL2 / K_CALL4 */
    PyObject *arg1;
    PyObject *arg2;
    int scale;        /* K_DECIMAL */
} ColPlan;

typedef struct {
    PyObject_VAR_HEAD
    vectorcallfunc vectorcall;
    int variable;
    int enc_kind;
    int keep;
    Py_ssize_t fixed_total;
    long epoch_ordinal;
    PyObject *encoding; /* str */
    const char *enc_name;
    PyObject *pure;
    PyObject *plan;
    PyObject *error_class; /* decode_tuples records these, raises anything else */
    /* decode_dicts' DictMaker of the last call, kept for the next call with the same keys
       tuple (rows.direct_keys gives one per description): a one-row reply would otherwise
       pay the template's making (~1 us) each time. */
    PyObject *dm_keys;
    PyObject *dm_template;
    Py_ssize_t *dm_slot;
    Py_ssize_t dm_unique;
    ColPlan cols[1];
} RowDecoder;

static PyTypeObject RowDecoder_Type;

/* ------------------------------------------------------------------------------------------ */

/* Forced inlining. decode_row_into is inlined into two callers (the tuple and the dict
   paths), so the helpers it calls at one place each (the DATE, CHAR and integer collection
   cells) have two call sites and gcc -O3 stops inlining them: a call per cell, ~19
   instructions a DATE cell (codec decode_date 393 -> 411 a cell against 9a91c27, callgrind).
   They are forced inline as they were when decode_row was their only caller. */
#if defined(__GNUC__) || defined(__clang__)
#define IFX_ALWAYS_INLINE inline __attribute__((always_inline))
#elif defined(_MSC_VER)
#define IFX_ALWAYS_INLINE __forceinline
#else
#define IFX_ALWAYS_INLINE inline
#endif

static inline uint16_t be16(const unsigned char *p) { return (uint16_t)((p[0] << 8) | p[1]); }

static inline uint32_t be32(const unsigned char *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

static inline uint64_t be64(const unsigned char *p)
{
    return ((uint64_t)be32(p) << 32) | (uint64_t)be32(p + 4);
}

