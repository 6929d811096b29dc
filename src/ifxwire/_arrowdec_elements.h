/* ifxwire._arrowdec, part "elements": collections' elements: a SET's sort and the text form's
 * numbers (float and DECIMAL elements). Included once, in order, by _arrowdec.c (one
 * translation unit, so gcc inlines across the parts as it did in one file): not a header of its
 * own. */

/* A SET's elements (machine order, in place) sorted ascending: a SET has no order, and the
   row path's Set (a frozenset) keeps none, so every Arrow path gives them sorted
   (arrow.py _list_converter). Returns -1 where the row decoder's Set would differ from the
   wire's elements (two equal elements, which it would make one; 0.0 and -0.0 are equal)
   or where no order holds (a NaN): the run then goes to the row decoder. Insertion sort:
   a SET value holds few elements. */
#define SORT_BODY(T)                                                                           \
    do {                                                                                       \
        T *a = (T *)(void *)out;                                                               \
        for (Py_ssize_t i = 0; i < n; i++) {                                                   \
            T v;                                                                               \
            memcpy(&v, &a[i], sizeof(T));                                                      \
            if (v != v)                                                                        \
                return -1;                                                                     \
            Py_ssize_t j = i;                                                                  \
            while (j > 0) {                                                                    \
                T u;                                                                           \
                memcpy(&u, &a[j - 1], sizeof(T));                                              \
                if (!(u > v))                                                                  \
                    break;                                                                     \
                memcpy(&a[j], &u, sizeof(T));                                                  \
                j--;                                                                           \
            }                                                                                  \
            memcpy(&a[j], &v, sizeof(T));                                                      \
        }                                                                                      \
        for (Py_ssize_t i = 1; i < n; i++) {                                                   \
            T x, y;                                                                            \
            memcpy(&x, &a[i - 1], sizeof(T));                                                  \
            memcpy(&y, &a[i], sizeof(T));                                                      \
            if (x == y)                                                                        \
                return -1;                                                                     \
        }                                                                                      \
    } while (0)

static int set_sort(unsigned char *out, Py_ssize_t n, Py_ssize_t w, int ek)
{
    if (ek == LK_FLOAT) {
        if (w == 4)
            SORT_BODY(float);
        else
            SORT_BODY(double);
    }
    else if (w == 2)
        SORT_BODY(int16_t);
    else if (w == 4)
        SORT_BODY(int32_t);
    else
        SORT_BODY(int64_t);
    return 0;
}

/* One number of a float collection's text at ``t`` (before ``end``), as the server spells
   it: -?[0-9]+(.[0-9]*)?([eE][-+]?[0-9]+)? and at most 80 characters. ``*out`` is strtod's
   double, correctly rounded as Python's float() of the same text is (the row decoder's
   value). Returns the byte after it, or NULL for anything else ("inf", "NULL", a blank, "+1",
   ".5": the row decoder decides). */
static const unsigned char *text_number(const unsigned char *t, const unsigned char *end,
                                        double *out)
{
    const unsigned char *s0 = t, *d0;
    char tmp[81];
    if (t < end && *t == '-')
        t++;
    d0 = t;
    while (t < end && *t >= '0' && *t <= '9')
        t++;
    if (t == d0)
        return NULL;
    if (t < end && *t == '.') {
        t++;
        while (t < end && *t >= '0' && *t <= '9')
            t++;
    }
    if (t < end && (*t == 'e' || *t == 'E')) {
        t++;
        if (t < end && (*t == '+' || *t == '-'))
            t++;
        d0 = t;
        while (t < end && *t >= '0' && *t <= '9')
            t++;
        if (t == d0)
            return NULL;
    }
    if (t - s0 > 80)
        return NULL;
    memcpy(tmp, s0, (size_t)(t - s0));
    tmp[t - s0] = 0;
    *out = c_strtod(tmp);
    return t;
}

/* One DECIMAL(p,s) element of the text form, -?[0-9]+(.[0-9]+)?, as the unscaled decimal128
   integer (little-endian) at scale ``scale``: what pyarrow makes of the row decoder's
   Decimal. More fraction digits than the scale, more digits than the precision, an exponent
   or anything else: NULL (the row decoder, and pyarrow's own check, decide). */
static const unsigned char *text_decimal(const unsigned char *t, const unsigned char *end,
                                         int precision, int scale, unsigned char out[16])
{
    int neg = 0, sig = 0, frac = 0;
    u128 acc = 0;
    if (t < end && *t == '-')
        neg = 1, t++;
    const unsigned char *d0 = t;
    for (; t < end && *t >= '0' && *t <= '9'; t++) {
        if (acc || *t != '0')
            sig++;
        acc = acc * 10 + (u128)(*t - '0');
        if (sig > 38)
            return NULL;
    }
    if (t == d0)
        return NULL;
    if (t < end && *t == '.') {
        t++;
        const unsigned char *f0 = t;
        for (; t < end && *t >= '0' && *t <= '9'; t++) {
            if (++frac > scale)
                return NULL;
            if (acc || *t != '0')
                sig++;
            acc = acc * 10 + (u128)(*t - '0');
            if (sig > 38)
                return NULL;
        }
        if (t == f0)
            return NULL;
    }
    u128 limit = 1;
    for (int i = 0; i < precision; i++)
        limit *= 10;
    for (int i = frac; i < scale; i++) {
        if (acc >= limit)
            return NULL;
        acc *= 10;
    }
    if (acc >= limit)
        return NULL;
    u128 v = neg ? (u128)0 - acc : acc;
    for (int i = 0; i < 16; i++)
        out[i] = (unsigned char)(v >> (8 * i));
    return t;
}

