/* sympath_unit_rt.h: support code included by every generated `sympath unit` harness: input objects, choices, the record. */
#ifndef SYMPATH_UNIT_RT_H
#define SYMPATH_UNIT_RT_H

/*
 * The harness builds each parameter of the function under test from sympath inputs
 * (include/sympath.h). Every object it creates is registered here with an id (1, 2, ...),
 * its type id, and a dump function. A pointer input is a *choice* input (LCT, Kähkönen et
 * al. 2009, section 4): a fresh object of the pointee type, NULL, or an alias of an earlier
 * fresh object of the same type; the choice is an ordinary symbolic input, so the harness's
 * branches on it are branches the explorer flips. Compiled natively with
 * -DSYMPATH_UNIT_RECORD (and the replay library), the harness also writes the record
 * (format in src/unit/unit.h) to the file named by $SYMPATH_UNIT_RECORD: the objects and
 * their values before and after the call, the stand-ins' return values, the return value.
 * Under `sympath run` the record functions do nothing.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sympath.h"
#include "sympath_env.h" /* src/proto/env.h, copied next to this file in lib/ */

#ifdef SYMPATH_UNIT_RECORD
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/types.h>
/* open and write are declared by hand: <fcntl.h> and <unistd.h> would define R_OK, O_RDONLY,
 * F_OK, ... before the unit's own headers, which may use those names (an enum's R_OK). */
int open(const char *path, int flags, ...);
ssize_t write(int fd, const void *buf, size_t n);
int dup(int fd);
int dup2(int fd, int to);
int close(int fd);
int mkstemp(char *templ);
int unlink(const char *path);
off_t lseek(int fd, off_t off, int whence);
ssize_t read(int fd, void *buf, size_t n);
size_t malloc_usable_size(void *p);                     /* glibc's <malloc.h> */
#define SYMPU_O_WRONLY_CREAT_APPEND (01 | 0100 | 02000) /* Linux O_WRONLY | O_CREAT | O_APPEND */
#endif

#define SYMPU_MAX_OBJS 1024

typedef void (*sympu_dump_fn)(const void *o, const char *lv, const char *phase, int id);

typedef struct sympu_obj {
    char *addr;
    int type;           /* element type id */
    size_t size;        /* element size, bytes */
    size_t count;       /* elements (1 unless an array object) */
    int aliasable;      /* a fresh object a later pointer of the same type may alias */
    int array;          /* an array object: elements dumped as [k] */
    int building;       /* still being filled: not aliasable yet (no cycles unless allowed) */
    int early;          /* its "pre" values were dumped before a producer's call (sympu_dump_early) */
    sympu_dump_fn dump; /* dumps one element */
} sympu_obj;

static sympu_obj sympu_objs[SYMPU_MAX_OBJS + 1];
static int sympu_nobjs;

/* Set by the caller just before it fills a pointer: whether NULL is one of the eager choices
 * (a stand-in's result, --null-all), and the same for the pointer a fresh object of pointer
 * type holds (T **p: *p). 0: NULL is lazy (sympu_lazy_null). A pointer fill reads and resets
 * both to 1. */
static int sympu_null_ok = 1, sympu_null_ok_deref = 1;
/* Bytes of room before the next string a fill makes (a parameter the function walks backwards,
 * unit_reads_before): symbolic inputs NAME.before, the pointer passed that far into the block. A
 * string fill reads and resets it to 0. */
static unsigned sympu_room_before;

/* Name of the stand-in at address p (generated with the harness), or NULL. */
static const char *sympu_stub_name(const void *p);
/* Whether the unit writes to a stream of that input name (generated with the harness). */
static int sympu_writes_stream(const char *name);

#ifdef SYMPATH_UNIT_RECORD
static int sympu_fd = -1;
__attribute__((format(printf, 1, 2))) static void sympu_rec(const char *fmt, ...)
{
    if (sympu_fd < 0) {
        const char *path = getenv(SYMPATH_ENV_UNIT_RECORD);
        sympu_fd = open(path && *path ? path : "/dev/null", SYMPU_O_WRONLY_CREAT_APPEND, 0644);
        if (sympu_fd < 0) return;
    }
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n > (int)sizeof buf - 1) {
        n = (int)sizeof buf - 1;
        buf[n - 1] = '\n'; /* a cut line stays one line (the parser rejects it, not the next) */
    }
    if (n > 0 && write(sympu_fd, buf, (size_t)n) < 0) return;
}
#else
#define sympu_rec(...) ((void)0)
#endif

/* Local name for an input path: "list->next->v" -> "list_next_v". */
static void sympu_local_name(char *out, size_t cap, const char *path)
{
    size_t o = 0;
    for (const char *p = path; *p && o + 1 < cap; p++) {
        char c = *p;
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
        if (ok)
            out[o++] = c;
        else if (o && out[o - 1] != '_')
            out[o++] = '_';
    }
    while (o && out[o - 1] == '_') o--;
    if (o == 0) out[o++] = 'o';
    out[o] = 0;
}

/* Register an object of count elements of size bytes; flags: "p" parameter, "a" array,
 * "s" string ("-" none). Returns its id, or 0 when the table is full. */
static int sympu_register(void *addr, int type, size_t size, size_t count, int aliasable, sympu_dump_fn dump,
                          const char *flags, const char *path, const char *ctype)
{
    if (sympu_nobjs >= SYMPU_MAX_OBJS) return 0;
    int id = ++sympu_nobjs;
    sympu_objs[id].addr = addr;
    sympu_objs[id].type = type;
    sympu_objs[id].size = size;
    sympu_objs[id].count = count;
    sympu_objs[id].aliasable = aliasable;
    sympu_objs[id].dump = dump;
    sympu_objs[id].array = strchr(flags, 'a') != NULL;
    sympu_objs[id].building = 1;
#ifdef SYMPATH_UNIT_RECORD
    char local[128];
    sympu_local_name(local, sizeof local, path);
    sympu_rec("obj %d %s %zu %s %s\n", id, flags, count, local, ctype);
#else
    (void)flags;
    (void)path;
    (void)ctype;
#endif
    return id;
}

/* k byte inputs named NAME.pad that nothing reads: a buffer of n < max elements consumes max inputs in
 * all, so the inputs after it keep their positions when the explorer changes n (inputs are positional:
 * sv.h's sv_eq_ignorecase(a, b) got a.count == b.count solved, and b.count then read a.data's first
 * byte; the run diverged and the loop was never entered). Never diversified. */
static void sympu_pad_bytes(size_t k, const char *name)
{
    char nm[256];
    unsigned char t[64];
    snprintf(nm, sizeof nm, "%s.pad", name);
    while (k) {
        size_t m = k < sizeof t ? k : sizeof t;
        sym_bytes(t, m, nm);
        k -= m;
    }
}

/* The element count of the text of a text pair (harness_pair_text) at addr, n bytes, then more bytes
 * past its length, then a NUL: n + more + 1; in record mode n + 1 when those more bytes are all zero,
 * so the test declares the text as a developer writes it, `char s[n + 1] = "..."` (a function that
 * stopped at the NUL read no further). */
static size_t sympu_text_fit(const char *addr, size_t n, size_t more)
{
#ifdef SYMPATH_UNIT_RECORD
    for (size_t k = n; k < n + more; k++)
        if (addr[k]) return n + more + 1;
    return n + 1;
#else
    (void)addr;
    return n + more + 1;
#endif
}

/* The record text of pointer p: "0" for NULL, "ID" for the start of object ID, "ID[K]" for
 * element K of array object ID, "-1" for any other address. buf holds 32 bytes. */
static const char *sympu_ptr_text(const void *p, char *buf)
{
    if (!p) return "0";
    for (int i = 1; i <= sympu_nobjs; i++) {
        const char *a = sympu_objs[i].addr, *q = (const char *)p;
        if (q == a) {
            snprintf(buf, 32, "%d", i);
            return buf;
        }
        size_t sz = sympu_objs[i].size;
        if (sympu_objs[i].array && q > a && q < a + sz * sympu_objs[i].count && sz && (size_t)(q - a) % sz == 0) {
            snprintf(buf, 32, "%d[%zu]", i, (size_t)(q - a) / sz);
            return buf;
        }
    }
    return "-1";
}

/* The end of a range that begins at p (unit_range_begin): p + k * elem, k a fresh input NAME.off
 * below the element count of the array object p starts (0 on the first run: an empty range);
 * NULL when p is NULL; p itself when p starts no registered array. */
static void *sympu_range_end(void *p, size_t elem, const char *name)
{
    if (!p) return NULL;
    for (int i = 1; i <= sympu_nobjs; i++) {
        if (sympu_objs[i].addr != (const char *)p || !sympu_objs[i].array || sympu_objs[i].count == 0) continue;
        char nm[256];
        snprintf(nm, sizeof nm, "%s.off", name);
        unsigned k = sym_uint(nm);
        sym_assume(k < sympu_objs[i].count);
        return (char *)p + (size_t)k * elem;
    }
    return p;
}

/* Id of the object starting at p; 0 for NULL; -1 for any other address. */
static int sympu_id_of(const void *p)
{
    if (!p) return 0;
    for (int i = 1; i <= sympu_nobjs; i++)
        if (sympu_objs[i].addr == (const char *)p) return i;
    return -1;
}

/* Whether a pointer may alias objects still being built (their ancestors): cyclic
 * structures. Off by default: a traversal of a cyclic list does not end. */
#ifndef SYMPU_CYCLES
#define SYMPU_CYCLES 0
#endif

static int sympu_alias_ok(int i, int type)
{
    return sympu_objs[i].aliasable && sympu_objs[i].type == type && (SYMPU_CYCLES || !sympu_objs[i].building);
}

/* Fresh objects of type `type` that a pointer may alias, and the k-th of them. */
static unsigned sympu_count(int type)
{
    unsigned n = 0;
    for (int i = 1; i <= sympu_nobjs; i++) n += sympu_alias_ok(i, type);
    return n;
}

static void *sympu_nth(int type, unsigned k)
{
    for (int i = 1; i <= sympu_nobjs; i++)
        if (sympu_alias_ok(i, type) && k-- == 0) return sympu_objs[i].addr;
    return NULL;
}

/* Object id is complete: later pointers may alias it. */
static void sympu_built(int id)
{
    if (id > 0) sympu_objs[id].building = 0;
}

/* The largest block an allocator stand-in gives (unit_callback_alloc_body): a bigger request
 * is out of memory (NULL), natively as under the sanitizers, whose allocator aborts instead. */
#define SYMPU_ALLOC_MAX ((size_t)1 << 24)

/* A symbolic choice among n alternatives (0 .. n-1); 0 on the all-zero input. */
static unsigned sympu_choice(const char *name, unsigned n)
{
    unsigned c = sym_uint(name);
    sym_assume(c < n);
    return c;
}

/* The registered array objects whose elements are elem bytes, not empty (a position parameter may
 * point into one of them: unit_position_param). */
static unsigned sympu_arrays_of(size_t elem)
{
    unsigned n = 0;
    for (int i = 1; i <= sympu_nobjs; i++)
        n += sympu_objs[i].array && sympu_objs[i].size == elem && sympu_objs[i].count;
    return n;
}

/* A position inside one of the arrays sympu_arrays_of(elem) counts: which one an input NAME.obj, the
 * element an input NAME.off below its count (a text's NUL included: where it ends); the start of the
 * first one on the all-zero input. */
static void *sympu_into(size_t elem, const char *name)
{
    char nm[256];
    snprintf(nm, sizeof nm, "%s.obj", name);
    unsigned k = sympu_choice(nm, sympu_arrays_of(elem));
    for (int i = 1; i <= sympu_nobjs; i++) {
        if (!sympu_objs[i].array || sympu_objs[i].size != elem || !sympu_objs[i].count || k-- != 0) continue;
        snprintf(nm, sizeof nm, "%s.off", name);
        unsigned j = sym_uint(nm);
        sym_assume(j < sympu_objs[i].count);
        return sympu_objs[i].addr + (size_t)j * elem;
    }
    return NULL;
}

/* LCT's lazy initialisation of NULL, decided by the run: the pointer p (not NULL) becomes
 * p & -(uintptr_t)!null, with `null` a fresh boolean input NAME.null that is false on the first
 * run. No branch of the harness reads it, so the explorer meets it only where the unit (or a
 * callee it passes the pointer to) compares the pointer: `p == NULL` is then a symbolic branch
 * whose other side is the NULL test. A load or store through the pointer pins its address
 * (rt_concretize_pin: null is false from there on), so once the unit has dereferenced the
 * pointer, a later check can no longer be made NULL, and a pointer dereferenced without a
 * check is never NULL. */
static uintptr_t sympu_lazy_null(uintptr_t p, const char *name)
{
    char nm[256];
    snprintf(nm, sizeof nm, "%s.null", name);
    _Bool null = sym_bool(nm);
    return p & ((uintptr_t)0 - (uintptr_t)!null);
}

/* The executor's runtime (rt_trace.c): the call of the function under test starts here. The
 * explorer's search prefers the branch directions met after it to those of building the inputs
 * (strategy_cov.c). Called by the drivers outside record mode only. */
#ifndef SYMPATH_UNIT_RECORD
void __sym_unit_target(void);
#endif

/* The n bytes at src as 2n hexadecimal digits and a NUL at dst (2n + 1 bytes): a record line's data. */
static void sympu_hex(char *dst, const void *src, size_t n)
{
    for (size_t i = 0; i < n; i++) snprintf(dst + 2 * i, 3, "%02x", ((const unsigned char *)src)[i]);
    dst[2 * n] = 0;
}

/* A FILE * input: a read stream over at most max fresh symbolic bytes (label.len, then
 * label[0..max-1], as --sym-file reads a file), registered as object F. The executor's runtime
 * (models_io.c) and the replay library (replay.c) both define __sym_unit_stream; in record mode
 * the bytes the stream holds are written as `stream ID LEN HEX`, so the test can rebuild it with
 * fmemopen. NULL when the runtime has no stream left. */
FILE *__sym_unit_stream(const char *label, unsigned max);
#ifdef SYMPATH_UNIT_RECORD
int __sym_unit_stream_data(FILE *f, const unsigned char **data, unsigned *len);
#endif
static FILE *sympu_stream(const char *name, unsigned max)
{
    FILE *f = __sym_unit_stream(name, max);
    if (!f) return NULL;
    int id = sympu_register(f, -3, 1, 1, 0, NULL, "F", name, "FILE");
#ifdef SYMPATH_UNIT_RECORD
    const unsigned char *d;
    unsigned len;
    if (id > 0 && __sym_unit_stream_data(f, &d, &len) == 0) {
        char hex[2 * 1000 + 1]; /* a record line holds 2048 bytes */
        unsigned n = len < 1000 ? len : 1000;
        sympu_hex(hex, d, n);
        sympu_rec("stream %d %u %s\n", id, n, hex);
    }
#endif
    sympu_built(id);
    return f;
}

/* Output streams (a FILE * the unit writes to): open_memstream buffers, their text recorded after the call as
 * `ostream ID LEN HEX` (the first 1000 bytes). */
#define SYMPU_MAX_OSTREAMS 8
FILE *open_memstream(char **, size_t *); /* POSIX 2008: a unit asking for less hides it */
static struct {
    int id;
    FILE *f;
    char *buf;
    size_t len;
} sympu_os[SYMPU_MAX_OSTREAMS];
static int sympu_nos;

static FILE *sympu_ostream(const char *name)
{
    if (sympu_nos >= SYMPU_MAX_OSTREAMS) return sympu_stream(name, 0);
    FILE *f = open_memstream(&sympu_os[sympu_nos].buf, &sympu_os[sympu_nos].len);
    if (!f) return sympu_stream(name, 0);
    int id = sympu_register(f, -3, 1, 1, 0, NULL, "O", name, "FILE");
    sympu_os[sympu_nos].id = id;
    sympu_os[sympu_nos++].f = f;
    sympu_built(id);
    return f;
}

/* Record mode: the text each output stream holds now. */
static void sympu_ostreams_dump(void)
{
#ifdef SYMPATH_UNIT_RECORD
    for (int i = 0; i < sympu_nos; i++) {
        if (sympu_os[i].id <= 0 || fflush(sympu_os[i].f) != 0) continue;
        size_t n = sympu_os[i].len < 1000 ? sympu_os[i].len : 1000;
        char hex[2 * 1000 + 1];
        sympu_hex(hex, sympu_os[i].buf, n);
        sympu_rec("ostream %d %zu %s\n", sympu_os[i].id, n, hex);
    }
#endif
}

/* Record mode: what the call under test writes to standard output (printf, puts, write(1, ...)) goes to
 * an unlinked temporary file (mkstemp: no heap block, which would change where the call's own
 * allocations land and whether a realloc grows in place) from sympu_stdout_begin to sympu_stdout_end,
 * which records it as `stdout LEN HEX` (LEN bytes written, the first 1000 in HEX): the emitted test
 * captures it the same way and asserts the text (a printing function's only observable effect:
 * tiny-regex-c's re_print). */
#ifdef SYMPATH_UNIT_RECORD
static int sympu_out_fd = -1, sympu_out_saved = -1;
#endif

static void sympu_stdout_begin(void)
{
#ifdef SYMPATH_UNIT_RECORD
    char path[] = "/tmp/sympath-stdout-XXXXXX";
    fflush(stdout);
    sympu_out_fd = mkstemp(path);
    if (sympu_out_fd < 0) return;
    unlink(path);
    sympu_out_saved = dup(1);
    if (sympu_out_saved < 0 || dup2(sympu_out_fd, 1) < 0) {
        if (sympu_out_saved >= 0) close(sympu_out_saved);
        close(sympu_out_fd);
        sympu_out_saved = sympu_out_fd = -1;
    }
#endif
}

static void sympu_stdout_end(void)
{
#ifdef SYMPATH_UNIT_RECORD
    if (sympu_out_saved < 0) return;
    fflush(stdout);
    dup2(sympu_out_saved, 1);
    close(sympu_out_saved);
    sympu_out_saved = -1;
    off_t len = lseek(sympu_out_fd, 0, SEEK_END);
    unsigned char d[1000];
    size_t n = len > 0 ? (size_t)len < sizeof d ? (size_t)len : sizeof d : 0, got = 0;
    if (len >= 0 && lseek(sympu_out_fd, 0, SEEK_SET) == 0)
        for (ssize_t k = 1; got < n && k > 0; got += k > 0 ? (size_t)k : 0) k = read(sympu_out_fd, d + got, n - got);
    if (len >= 0 && got == n) {
        char hex[2 * sizeof d + 1];
        sympu_hex(hex, d, n);
        sympu_rec("stdout %lld %s\n", (long long)len, hex);
    }
    close(sympu_out_fd);
    sympu_out_fd = -1;
#endif
}

#ifdef SYMPATH_UNIT_RECORD
/* Record mode only: free and realloc are interposed so that an input object the unit
 * frees (or moves) is known; its values after the call are garbage and are not recorded
 * (`freed ID` instead). glibc's own entry points do the work. */
extern void __libc_free(void *);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
static char sympu_freed[SYMPU_MAX_OBJS + 1];

/* Blocks malloc, calloc or realloc gave during the call or a producer's call and not freed
 * since (the first SYMPU_MAX_ALLOCS): a returned pointer that starts one of the call's is heap
 * memory the call allocated, which the test releases; the producers' (made, kept after
 * sympu_allocs_made) only give their extent to the walk, so a produced node allocated shorter than
 * its struct is not read past its end. */
#define SYMPU_MAX_ALLOCS 4096
static void *sympu_allocs[SYMPU_MAX_ALLOCS];
static size_t sympu_alloc_size[SYMPU_MAX_ALLOCS];
static char sympu_alloc_made[SYMPU_MAX_ALLOCS];
static int sympu_nallocs, sympu_in_call;

/* Blocks the call of the target freed (the first SYMPU_MAX_CALL_FREED; one allocated again leaves
 * the list): the walk after the call does not follow a pointer to one (its bytes are garbage), and
 * sympu_pfreed[i] marks a pointer object whose value one was (`freed by the call`: list_remove(l, n)
 * frees n, which the test then must not release) */
#define SYMPU_MAX_CALL_FREED 256
static const void *sympu_call_freed[SYMPU_MAX_CALL_FREED];
static int sympu_ncall_freed, sympu_target_called;
static char sympu_pfreed[SYMPU_MAX_OBJS + 1];

static int sympu_freed_by_call(const void *p)
{
    for (int i = 0; p && i < sympu_ncall_freed; i++)
        if (sympu_call_freed[i] == p) return 1;
    return 0;
}

static void sympu_alloc_add(void *p, size_t n)
{
    for (int i = 0; p && i < sympu_ncall_freed; i++)
        if (sympu_call_freed[i] == p) sympu_call_freed[i--] = sympu_call_freed[--sympu_ncall_freed];
    if (sympu_in_call && p && sympu_nallocs < SYMPU_MAX_ALLOCS) {
        sympu_alloc_size[sympu_nallocs] = n;
        sympu_alloc_made[sympu_nallocs] = 0;
        sympu_allocs[sympu_nallocs++] = p;
    }
}

static void sympu_alloc_del(const void *p)
{
    for (int i = 0; p && i < sympu_nallocs; i++)
        if (sympu_allocs[i] == p) {
            sympu_nallocs--;
            sympu_allocs[i] = sympu_allocs[sympu_nallocs];
            sympu_alloc_size[i] = sympu_alloc_size[sympu_nallocs];
            sympu_alloc_made[i] = sympu_alloc_made[sympu_nallocs];
            return;
        }
}

/* After a producer's call: its blocks are no longer the call's (kept for their extent). */
static void sympu_allocs_made(void)
{
    for (int i = 0; i < sympu_nallocs; i++) sympu_alloc_made[i] = 1;
}

/* The bytes from p to the end of a block the call or a producer allocated (p inside it), else
 * (size_t)-1. */
static size_t sympu_heap_room(const void *p)
{
    for (int i = 0; p && i < sympu_nallocs; i++) {
        const char *a = sympu_allocs[i], *q = p;
        if (q >= a && q < a + sympu_alloc_size[i]) return sympu_alloc_size[i] - (size_t)(q - a);
    }
    return (size_t)-1;
}

/* Whether the n bytes at field lie inside the block of a walked struct o, room being
 * sympu_heap_room(o): always when o is in no block the call allocated (its extent unknown). */
static int sympu_walk_fits(const void *o, size_t room, const void *field, size_t n)
{
    size_t off = (size_t)((const char *)field - (const char *)o);
    return room == (size_t)-1 || (off <= room && n <= room - off);
}

/* Whether p is the start of a block the call allocated and did not free. */
static int sympu_heap_block(const void *p)
{
    for (int i = 0; p && i < sympu_nallocs; i++)
        if (sympu_allocs[i] == p && !sympu_alloc_made[i]) return 1;
    return 0;
}

static int sympu_heapat_new(const void *p);

/* Record mode (defined only there): what the call left in the blocks of its variadic arguments (unit.h): one
 * `vararg K HEX` line per block that is not all zero, HEX its bytes up to its last nonzero one, and a
 * `varheap K OFF HEX` line per pointer in its first 64 bytes (8-byte aligned) to a block the call allocated,
 * HEX its first 64 bytes at most ("-": none). */
static void sympu_varargs_dump(const unsigned char *va, int blocks, int bytes)
{
    for (int k = 0; k < blocks; k++) {
        const unsigned char *p = va + (size_t)k * (size_t)bytes;
        for (int off = 0; off + (int)sizeof(void *) <= bytes && off < 64; off += 8) {
            const void *w;
            memcpy(&w, p + off, sizeof w);
            if (!sympu_heapat_new(w)) continue;
            /* its bytes (up to 64: what json_scanf's %Q made), asserted by the test before it frees it */
            size_t room = sympu_heap_room(w), m = room == (size_t)-1 ? 0 : room < 64 ? room : 64;
            char bh[2 * 64 + 1] = "-";
            if (m) sympu_hex(bh, w, m);
            sympu_rec("varheap %d %d %s\n", k, off, bh);
        }
        int n = bytes;
        while (n > 0 && p[n - 1] == 0) n--;
        if (n == 0) continue;
        char hex[2 * 256 + 1];
        sympu_hex(hex, p, (size_t)(n < 256 ? n : 256));
        sympu_rec("vararg %d %s\n", k, hex);
    }
}

/* Record mode: the blocks the call allocated that the record already names for release (the
 * result, an input entry: `heapat` lines), so two entries holding one block release it once. */
#define SYMPU_HEAPAT_MAX 64
static const void *sympu_heapat_seen[SYMPU_HEAPAT_MAX];
static int sympu_nheapat;

/* Whether p starts a block the call allocated (sympu_heap_block) that no earlier result or
 * entry named; marks it named. */
static int sympu_heapat_new(const void *p)
{
    if (!sympu_heap_block(p)) return 0;
    for (int i = 0; i < sympu_nheapat; i++)
        if (sympu_heapat_seen[i] == p) return 0;
    if (sympu_nheapat >= SYMPU_HEAPAT_MAX) return 0;
    sympu_heapat_seen[sympu_nheapat++] = p;
    return 1;
}

/* Record mode: the byte fresh memory holds during the call (SYMPATH_UNIT_PAINT), -1 when unset: the
 * stack below the call (sympu_paint_stack) and what malloc gives. Two records with two bytes tell the
 * values the call read from memory nobody wrote (step_record.c): they are not asserted. */
static int sympu_paint = -2;

static int sympu_paint_byte(void)
{
    if (sympu_paint == -2) {
        const char *e = getenv(SYMPATH_ENV_UNIT_PAINT);
        sympu_paint = e && *e ? atoi(e) & 0xff : -1;
    }
    return sympu_paint;
}

/* Fills 64 KiB of the stack below the caller's frame with the paint byte (nothing when unset): the
 * function has no other local and no stack protector, so its area starts right below its saved frame
 * pointer, where the next callee's locals will lie. */
#if defined(__has_attribute)
#if __has_attribute(no_stack_protector)
#define SYMPU_NO_SSP __attribute__((no_stack_protector))
#endif
#endif
#ifndef SYMPU_NO_SSP
#define SYMPU_NO_SSP
#endif
__attribute__((noinline)) SYMPU_NO_SSP static void sympu_paint_area(void)
{
    volatile unsigned char area[65536];
    memset((unsigned char *)area, sympu_paint, sizeof area);
}

/* Called by the harness's main right before the call (a frame of its own would keep the area from the
 * top of the callee's frame). */
#define sympu_paint_stack()                              \
    do {                                                 \
        if (sympu_paint_byte() >= 0) sympu_paint_area(); \
    } while (0)

/* Fills the n bytes at p with the paint byte (nothing when unset). */
static void sympu_paint_block(void *p, size_t n)
{
    if (sympu_paint_byte() >= 0) memset(p, sympu_paint, n);
}

void *malloc(size_t n)
{
    void *p = __libc_malloc(n);
    sympu_alloc_add(p, n);
    if (p && sympu_in_call && sympu_paint_byte() >= 0) memset(p, sympu_paint, n);
    return p;
}

void *calloc(size_t k, size_t n)
{
    void *p = __libc_calloc(k, n);
    sympu_alloc_add(p, k * n);
    return p;
}

static void sympu_mark_freed(const void *p)
{
    int in_target = p && sympu_in_call && sympu_target_called;
    for (int i = 1; p && i <= sympu_nobjs; i++) {
        const sympu_obj *o = &sympu_objs[i];
        if (o->addr == (const char *)p)
            sympu_freed[i] = 1;
        else if (in_target && !o->array && o->size == sizeof(void *) && *(void *const *)(const void *)o->addr == p)
            sympu_pfreed[i] = 1;
    }
    if (in_target && sympu_ncall_freed < SYMPU_MAX_CALL_FREED) sympu_call_freed[sympu_ncall_freed++] = p;
}

void free(void *p)
{
    sympu_mark_freed(p);
    sympu_alloc_del(p);
    __libc_free(p);
}

/* The bytes a realloc of p keeps: the size it was allocated with when known, else what the allocator
 * says is usable. */
static size_t sympu_block_size(void *p)
{
    if (!p) return 0;
    size_t room = sympu_heap_room(p);
    return room != (size_t)-1 ? room : malloc_usable_size(p);
}

/* A block grown by realloc gets its new tail painted as malloc's blocks are (csv_parse's entry_buf:
 * the bytes past what the call wrote were asserted and differed natively). */
void *realloc(void *p, size_t n)
{
    size_t old = sympu_in_call && sympu_paint_byte() >= 0 ? sympu_block_size(p) : n;
    void *q = __libc_realloc(p, n);
    if (q && old < n) memset((char *)q + old, sympu_paint, n - old);
    if (p && q != p && (q || n == 0)) sympu_mark_freed(p);
    if (q || n == 0) sympu_alloc_del(p);
    sympu_alloc_add(q, n);
    return q;
}
#endif

/* Dump every element of objects first..sympu_nobjs in the given phase ("pre", "post"); in phase
 * "pre" not the objects sympu_dump_early dumped already. */
static void sympu_dump_from(int first, const char *phase)
{
    if (!strcmp(phase, "post")) sympu_ostreams_dump();
#ifdef SYMPATH_UNIT_RECORD
    for (int i = first; i <= sympu_nobjs; i++) {
        sympu_obj *o = &sympu_objs[i];
        if (!o->dump || (o->early && !strcmp(phase, "pre"))) continue;
        if (sympu_freed[i]) {
            sympu_rec("freed %d\n", i);
            continue;
        }
        if (sympu_pfreed[i] && !strcmp(phase, "post")) sympu_rec("pfreed %d\n", i);
        if (!o->array) {
            o->dump(o->addr, "", phase, i);
            continue;
        }
        for (size_t k = 0; k < o->count; k++) {
            char lv[32];
            snprintf(lv, sizeof lv, "[%zu]", k);
            o->dump(o->addr + k * o->size, lv, phase, i);
        }
    }
#else
    (void)first;
    (void)phase;
#endif
}

/* Record mode: the "pre" values of objects first..sympu_nobjs (a producer's arguments), dumped
 * right before the producer's call, so the test declares them as they were when it called the
 * producer, not as the producer left them (a list of variables expr_create added to holds the
 * producer's heap blocks, which a test cannot declare); sympu_dump_from skips them in phase
 * "pre". Their "post" values are dumped after the call of the target as any object's. */
static void sympu_dump_early(int first)
{
#ifdef SYMPATH_UNIT_RECORD
    sympu_dump_from(first, "pre");
    for (int i = first; i <= sympu_nobjs; i++) sympu_objs[i].early = 1;
#else
    (void)first;
#endif
}

/* Record mode: the arguments of one modifier call of a construction (objects first..sympu_nobjs), dumped
 * right before the call as sympu_dump_early does, and given no "post" values: they live in the loop's
 * locals, which the next call's arguments reuse (clibs/list's second list_rpush(l, node) node would be
 * recorded for the first one too). */
static void sympu_dump_step(int first)
{
    sympu_dump_early(first);
#ifdef SYMPATH_UNIT_RECORD
    for (int i = first; i <= sympu_nobjs; i++) sympu_objs[i].dump = NULL;
#endif
}

#ifdef SYMPATH_UNIT_RECORD
static void sympu_pi(const char *phase, int id, const char *lv, long long v)
{
    sympu_rec("%s %d %s i %lld\n", phase, id, *lv ? lv : "-", v);
}
static void sympu_pu(const char *phase, int id, const char *lv, unsigned long long v)
{
    sympu_rec("%s %d %s u %llu\n", phase, id, *lv ? lv : "-", v);
}
/* a floating-point value, exact: C99 hexadecimal (inf, -inf, nan, -nan as printf writes them) */
static void sympu_pd(const char *phase, int id, const char *lv, double v)
{
    sympu_rec("%s %d %s d %a\n", phase, id, *lv ? lv : "-", v);
}
static void sympu_pe(const char *phase, int id, const char *lv, const char *v)
{
    sympu_rec("%s %d %s e %s\n", phase, id, *lv ? lv : "-", v);
}
static void sympu_pp(const char *phase, int id, const char *lv, const void *p)
{
    char buf[32];
    sympu_rec("%s %d %s p %s\n", phase, id, *lv ? lv : "-", sympu_ptr_text(p, buf));
}
static void sympu_dump_byte(const void *o, const char *lv, const char *phase, int id)
{
    sympu_pu(phase, id, lv, *(const unsigned char *)o);
}
/* a union's bytes (n of them at o), in hexadecimal: "PHASE ID LV x 01ff..." (a union of more than
 * 512 bytes is not recorded) */
static void sympu_px(const char *phase, int id, const char *lv, const void *o, size_t n)
{
    char hex[2 * 512 + 1];
    if (n > 512) return;
    sympu_hex(hex, o, n);
    sympu_rec("%s %d %s x %s\n", phase, id, *lv ? lv : "-", hex);
}
/* The body of a C string literal for s (at most max bytes before its NUL) in lit (cap bytes:
 * 6 per byte and 1 are enough): \n \t \\ \" \? escaped, other unprintable bytes as \xNN, a
 * literal split ("") after \xNN when a hex digit follows. Returns 0, or -1 when s is longer. */
static int sympu_escape(const char *s, size_t max, char *lit, size_t cap)
{
    size_t o = 0, i = 0;
    int hex = 0; /* the previous byte was written \xNN */
    for (; s[i] && i < max; i++) {
        unsigned char c = (unsigned char)s[i];
        const char *esc = c == '"'    ? "\\\""
                          : c == '\\' ? "\\\\"
                          : c == '\n' ? "\\n"
                          : c == '\t' ? "\\t"
                          : c == '?'  ? "\\?"
                                      : NULL;
        int isx = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
        if (o + 7 > cap) return -1;
        if (hex && isx && !esc) o += (size_t)snprintf(lit + o, 3, "\"\"");
        hex = 0;
        if (esc)
            o += (size_t)snprintf(lit + o, 5, "%s", esc);
        else if (c >= 32 && c < 127)
            lit[o++] = (char)c;
        else {
            o += (size_t)snprintf(lit + o, 5, "\\x%02x", c);
            hex = 1;
        }
    }
    lit[o] = 0;
    return s[i] ? -1 : 0;
}

/* The n bytes at s (NULs included, as \x00) as a C string literal body into lit (cap bytes; cut
 * short when it does not fit); pieces joined by "" when a hex digit follows a \xNN. */
static void sympu_escape_n(const char *s, size_t n, char *lit, size_t cap)
{
    size_t o = 0;
    int hex = 0;
    for (size_t i = 0; i < n && o + 8 < cap; i++) {
        char one[2] = {s[i], 0}, e[8];
        unsigned char c = (unsigned char)s[i];
        int isx = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
        if (c == 0)
            snprintf(e, sizeof e, "\\x00");
        else
            sympu_escape(one, 1, e, sizeof e);
        if (hex && isx && e[0] != '\\') o += (size_t)snprintf(lit + o, 3, "\"\"");
        hex = e[0] == '\\' && e[1] == 'x';
        o += (size_t)snprintf(lit + o, cap - o, "%s", e);
    }
    lit[o] = 0;
}

/* The result of a function returning char *: an input object (ret p ID) or NULL, else the
 * string's text as a C string literal body (ret s ...); a text longer than 200 bytes, or a block
 * the call allocated with no NUL inside it (a copy of a buffer, not a string: reading it as one
 * would run past its end), is only a pointer (ret p -1). */
static void sympu_ret_str(const char *s)
{
    char buf[32];
    const char *t = sympu_ptr_text(s, buf);
    if (strcmp(t, "-1")) {
        sympu_rec("ret p %s\n", t);
        return;
    }
    char lit[200 * 6 + 1];
    size_t room = sympu_heap_room(s), max = room != (size_t)-1 && room - 1 < 200 ? room - 1 : 200;
    if (room == 0 || sympu_escape(s, max, lit, sizeof lit) != 0) {
        sympu_rec("ret p -1\n");
        return;
    }
    sympu_rec("ret s %s\n", lit);
}

/* ---- the walk: after the call, the memory the function returned or stored in an input
 * object's pointer (no input object itself) is written to the record field by field as
 * `walk ROOT SUFFIX TAIL KIND VALUE` lines (ROOT 0 and SUFFIX "-": the return value; else the
 * input object's entry; TAIL the access path from there, "->next->text"). Bounded: pointers to
 * structs followed SYMPU_WALK_HOPS deep (a pointer to the same struct type, a list's next, is
 * a step: SYMPU_WALK_STEPS of them), at most SYMPU_WALK_LINES lines per root; a block seen
 * before in the same root is `q` with the first path instead of walked again. */
#define SYMPU_WALK_HOPS 5
#define SYMPU_WALK_STEPS 8
#define SYMPU_WALK_LINES 96
#define SYMPU_WALK_SEEN 64
static struct {
    int root;
    const char *lv;
    int lines, nseen;
    const void *seen[SYMPU_WALK_SEEN];
    char seen_tail[SYMPU_WALK_SEEN][256];
} sympu_wk;

/* Start a walk at input entry (root, lv), or at the return value (0, "-"). */
static void sympu_walk_begin(int root, const char *lv)
{
    sympu_wk.root = root;
    sympu_wk.lv = *lv ? lv : "-";
    sympu_wk.lines = 0;
    sympu_wk.nseen = 0;
}

/* Whether another line fits in this root's budget (counts it). */
static int sympu_walk_room(void) { return sympu_wk.lines++ < SYMPU_WALK_LINES; }

__attribute__((format(printf, 3, 4))) static void sympu_wline(const char *tail, const char *kind, const char *fmt, ...)
{
    char v[1600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v, sizeof v, fmt, ap);
    va_end(ap);
    sympu_rec("walk %d %s %s %s %s\n", sympu_wk.root, sympu_wk.lv, *tail ? tail : "-", kind, v);
}

/* Record mode: below the return value, a pointer at tail that starts a block the call allocated
 * and no earlier line named (cfg_load's `c->data`): `retown TAIL`, which the test frees before
 * the result when it releases the result with free and LeakSanitizer found the block leaked. */
static void sympu_walk_owned(const void *p, const char *tail)
{
    if (sympu_wk.root == 0 && *tail && sympu_heapat_new(p)) sympu_rec("retown %s\n", tail);
}

/* A pointer at tail: NULL, an input object, a block already walked (q), or fresh memory
 * (p -1). Returns 1 when the caller is to walk the pointee (fresh, not seen, within the
 * bounds), after marking it seen. */
static int sympu_walk_ptr(const void *p, const char *tail, int more)
{
    char buf[32];
    if (!sympu_walk_room()) return 0;
#ifdef SYMPATH_UNIT_RECORD
    if (sympu_freed_by_call(p)) { /* the call freed it: its bytes are garbage now */
        sympu_wline(tail, "p", "-1");
        return 0;
    }
#endif
    const char *t = sympu_ptr_text(p, buf);
    if (strcmp(t, "-1")) {
        sympu_wline(tail, "p", "%s", t);
        return 0;
    }
    for (int i = 0; i < sympu_wk.nseen; i++)
        if (sympu_wk.seen[i] == p) {
            sympu_wline(tail, "q", "%s", *sympu_wk.seen_tail[i] ? sympu_wk.seen_tail[i] : "-");
            return 0;
        }
    sympu_wline(tail, "p", "-1");
    sympu_walk_owned(p, tail);
    if (!more || sympu_wk.nseen >= SYMPU_WALK_SEEN) return 0;
    sympu_wk.seen[sympu_wk.nseen] = p;
    snprintf(sympu_wk.seen_tail[sympu_wk.nseen], 256, "%s", tail);
    sympu_wk.nseen++;
    return 1;
}

/* A char * at tail: NULL or an input object as a pointer, else its text (s) when at most 200
 * bytes (and, in a block the call allocated, a NUL ends it inside the block: a buffer that is no
 * string is not read past its end), else only non-NULL. */
static void sympu_walk_str(const char *s, const char *tail)
{
    char buf[32];
    if (!sympu_walk_room()) return;
    const char *t = sympu_ptr_text(s, buf);
    char lit[200 * 6 + 1];
    size_t room = strcmp(t, "-1") ? 0 : sympu_heap_room(s);
    if (strcmp(t, "-1"))
        sympu_wline(tail, "p", "%s", t);
    else if ((room == (size_t)-1 || memchr(s, 0, room < 201 ? room : 201)) &&
             sympu_escape(s, 200, lit, sizeof lit) == 0)
        sympu_wline(tail, "s", "%s", lit);
    else
        sympu_wline(tail, "p", "-1");
    if (!strcmp(t, "-1")) sympu_walk_owned(s, tail);
}

/* A char array of n bytes at tail: its text (kind a) when a NUL ends it within n, else nothing
 * (the caller records the bytes). Returns 1 when recorded. */
static int sympu_walk_chars(const char *a, size_t n, const char *tail)
{
    if (!memchr(a, 0, n)) return 0;
    char lit[256 * 6 + 1];
    if (n > 256 || sympu_escape(a, n, lit, sizeof lit) != 0) return 0;
    if (sympu_walk_room()) sympu_wline(tail, "a", "%s", lit);
    return 1;
}

typedef void (*sympu_walk_fn)(const void *o, const char *prefix, int hops, int steps);
static sigjmp_buf sympu_walk_jb;
static void sympu_walk_fault(int s)
{
    (void)s;
    siglongjmp(sympu_walk_jb, 1);
}

/* Install the walk's SIGSEGV/SIGBUS handler (a fault while reading ends the walk through
 * sympu_walk_jb), keeping the old actions; sympu_walk_unguard restores them. */
static void sympu_walk_guard(struct sigaction *old_segv, struct sigaction *old_bus)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = sympu_walk_fault;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_NODEFER;
    sigaction(SIGSEGV, &sa, old_segv);
    sigaction(SIGBUS, &sa, old_bus);
}

static void sympu_walk_unguard(const struct sigaction *old_segv, const struct sigaction *old_bus)
{
    sigaction(SIGSEGV, old_segv, NULL);
    sigaction(SIGBUS, old_bus, NULL);
}

/* The ELF64 records sympu_static_extent reads, declared here: <elf.h> would define hundreds of
 * macros (PT_LOAD, ET_NONE, ...) before the unit's own headers, which may use those names. */
typedef struct {
    unsigned char ident[16];
    uint16_t type, machine;
    uint32_t version;
    uint64_t entry, phoff, shoff;
    uint32_t flags;
    uint16_t ehsize, phentsize, phnum, shentsize, shnum, shstrndx;
} sympu_elf_ehdr;
typedef struct {
    uint32_t type, flags;
    uint64_t offset, vaddr, paddr, filesz, memsz, align;
} sympu_elf_phdr;
typedef struct {
    uint32_t name, type;
    uint64_t flags, addr, offset, size;
    uint32_t link, info;
    uint64_t addralign, entsize;
} sympu_elf_shdr;
typedef struct {
    uint32_t name;
    unsigned char info, other;
    uint16_t shndx;
    uint64_t value, size;
} sympu_elf_sym;
unsigned long getauxval(unsigned long type);

/* The size of the object of the recorder's own symbol table (.symtab of /proc/self/exe, read
 * once) that starts at p: a static or global array of the unit; 0 when none starts there or the
 * table cannot be read. A pointer the call returns to the start of such an array (tiny-regex-c's
 * re_compile returns its static `re_compiled`) points to all of it, not to one struct. */
static size_t sympu_static_extent(const void *p)
{
    static unsigned char *img;
    static size_t len;
    static int tried;
    if (!tried) {
        tried = 1;
        FILE *f = fopen("/proc/self/exe", "rb");
        long n = f && fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
        if (n > 0 && fseek(f, 0, SEEK_SET) == 0 && (img = malloc((size_t)n)) &&
            fread(img, 1, (size_t)n, f) == (size_t)n)
            len = (size_t)n;
        if (f) fclose(f);
    }
    const sympu_elf_ehdr *eh = (const void *)img;
    if (len < sizeof *eh || memcmp(eh->ident, "\177ELF", 4) || eh->ident[4] != 2 /* ELFCLASS64 */ ||
        eh->phoff + (size_t)eh->phnum * sizeof(sympu_elf_phdr) > len ||
        eh->shoff + (size_t)eh->shnum * sizeof(sympu_elf_shdr) > len)
        return 0;
    /* the load address of a position-independent executable: where its program headers are
     * (PT_PHDR 6, AT_PHDR 3) */
    uintptr_t base = 0;
    const sympu_elf_phdr *ph = (const void *)(img + eh->phoff);
    for (int i = 0; i < eh->phnum; i++)
        if (ph[i].type == 6) base = (uintptr_t)getauxval(3) - ph[i].vaddr;
    const sympu_elf_shdr *sh = (const void *)(img + eh->shoff);
    for (int i = 0; i < eh->shnum; i++) {
        if (sh[i].type != 2 /* SHT_SYMTAB */ || sh[i].offset + sh[i].size > len) continue;
        const sympu_elf_sym *sy = (const void *)(img + sh[i].offset);
        for (size_t k = 0; k < sh[i].size / sizeof *sy; k++)
            if ((sy[k].info & 0xf) == 1 /* STT_OBJECT */ && sy[k].size && base + sy[k].value == (uintptr_t)p)
                return sy[k].size;
    }
    return 0;
}

/* Elements of a static array walked after the first, at most. */
#define SYMPU_WALK_ELEMS 16

/* Walk the block p (not NULL, no input object) from root (0, "": the return value; else the
 * input entry's id and lv): walk, a struct's walker (elem its size: when p starts a static array
 * of the unit, its next elements too, tails `[1].f`, up to one whose first byte is 0; when count
 * > 0, an out-parameter the call wrote gives the array's length: that many elements, within the
 * block p lies in), or NULL for a string. A fault while
 * reading (a dangling or uninitialised pointer) ends the walk with the lines written so far. */
static void sympu_walk_lenstr(const char *s, size_t n, const char *lname, const char *tail);

static void sympu_walk_root_n(int root, const char *lv, const void *p, sympu_walk_fn walk, size_t elem, long long count)
{
    if (sympu_freed_by_call(p)) return; /* the call freed it: its bytes are garbage now */
    sympu_walk_begin(root, lv);
    struct sigaction old_segv, old_bus;
    sympu_walk_guard(&old_segv, &old_bus);
    if (sigsetjmp(sympu_walk_jb, 1) == 0) {
        if (walk) {
            /* the first element always (as a single struct: the count out-parameter may be no
             * count of it, `int *len` the characters read), within its heap block */
            sympu_wk.seen[sympu_wk.nseen] = p;
            sympu_wk.seen_tail[sympu_wk.nseen][0] = 0;
            sympu_wk.nseen++;
            walk(p, "->", 0, 0);
            size_t ext = 0, room = sympu_heap_room(p);
            if (room == (size_t)-1 && elem && count > 0) room = sympu_static_extent(p); /* 0: unknown */
            if (elem && count > 0)
                ext = (size_t)count * elem < room ? (size_t)count * elem : room;
            else if (elem)
                ext = sympu_static_extent(p);
            /* up to the element whose first byte is 0, as a string to its NUL (re_compile's UNUSED
             * terminator): a static array keeps what earlier calls left after it, which a test
             * running after another would not find again */
            for (size_t k = 1; elem && k < ext / elem && k <= SYMPU_WALK_ELEMS; k++) {
                if (count < 0 && ((const unsigned char *)p)[(k - 1) * elem] == 0) break;
                char pre[32];
                snprintf(pre, sizeof pre, "[%zu].", k);
                walk((const char *)p + k * elem, pre, 0, 0);
            }
        } else if (count >= 0) {
            sympu_walk_lenstr((const char *)p, (size_t)count, "-", ""); /* a buffer struct's data */
        } else {
            sympu_walk_str((const char *)p, "");
        }
    }
    sympu_walk_unguard(&old_segv, &old_bus);
}

static void sympu_walk_root(int root, const char *lv, const void *p, sympu_walk_fn walk, size_t elem)
{
    sympu_walk_root_n(root, lv, p, walk, elem, -1);
}

/* A string of n bytes (NULs included) at tail whose length the unit's accessor lname gave:
 * `b LNAME N BODY` (BODY the n bytes as a C string literal body, \x00 for a NUL), when n is at
 * most 200 and within its heap block with its NUL; else as sympu_walk_str. lname "-": the n bytes
 * of a buffer struct's data (its length field), no NUL after them. */
static void sympu_walk_lenstr(const char *s, size_t n, const char *lname, const char *tail)
{
    char buf[32], lit[200 * 6 + 1];
    size_t room = sympu_heap_room(s), need = n + (strcmp(lname, "-") != 0);
    if (strcmp(sympu_ptr_text(s, buf), "-1") || n > 200 || (room != (size_t)-1 && need > room)) {
        sympu_walk_str(s, tail);
        return;
    }
    if (!sympu_walk_room()) return;
    sympu_escape_n(s, n, lit, sizeof lit);
    sympu_wline(tail, "b", "%s %zu %s", lname, n, lit);
    sympu_walk_owned(s, tail);
}

/* Walk the array of pointers p the call returned (not NULL, no input object), element by element
 * at tails "[K]": count elements when count >= 0 (an out-parameter the call wrote: `*argc`), else
 * up to and including the first NULL one (a NULL-terminated array); never past the end of the heap
 * block (or static array) p starts, nor past SYMPU_WALK_ELEMS + 1 elements; without an extent,
 * nothing. An element is a string when str (its text; its length len(e) and its bytes when
 * len, the unit's accessor lname, is given: sds), else a pointer to a struct walk walks (NULL: a
 * plain pointer). A fault ends the walk with the lines written so far. */
static void sympu_walk_ptrs(const void *p, long long count, sympu_walk_fn walk, int str, size_t (*len)(const void *),
                            const char *lname)
{
    size_t room = sympu_heap_room(p);
    if (room == (size_t)-1) room = sympu_static_extent(p);
    size_t n = room / sizeof(void *);
    if (count >= 0 && (size_t)count < n) n = (size_t)count;
    if (n > SYMPU_WALK_ELEMS + 1) n = SYMPU_WALK_ELEMS + 1;
    sympu_walk_begin(0, "");
    struct sigaction old_segv, old_bus;
    sympu_walk_guard(&old_segv, &old_bus);
    if (sigsetjmp(sympu_walk_jb, 1) == 0) {
        for (size_t k = 0; k < n; k++) {
            const void *e = ((const void *const *)p)[k];
            char tail[32], pre[40];
            snprintf(tail, sizeof tail, "[%zu]", k);
            if (str && len && e)
                sympu_walk_lenstr((const char *)e, len(e), lname, tail);
            else if (str)
                sympu_walk_str((const char *)e, tail);
            else if (sympu_walk_ptr(e, tail, walk != NULL)) {
                snprintf(pre, sizeof pre, "%s->", tail);
                walk(e, pre, 1, 0);
            }
            if (count < 0 && !e) break; /* the terminator */
        }
    }
    sympu_walk_unguard(&old_segv, &old_bus);
}

/* Walk the array of count integers (or enumerators, as numbers) p the call returned (not NULL, no
 * input object; count from the out-parameter the call wrote), elem bytes each, signed or not:
 * `walk 0 - [K] i|u V`, at most SYMPU_WALK_LINES of them and never past the end of the heap block
 * (or static array) p starts. */
static void sympu_walk_ints(const void *p, long long count, size_t elem, int is_signed)
{
    size_t room = sympu_heap_room(p);
    if (room == (size_t)-1) room = sympu_static_extent(p);
    if (count <= 0 || (elem != 1 && elem != 2 && elem != 4 && elem != 8)) return;
    size_t n = (size_t)count;
    if (n > room / elem) n = room / elem; /* an unknown extent (0): nothing */
    sympu_walk_begin(0, "");
    struct sigaction old_segv, old_bus;
    sympu_walk_guard(&old_segv, &old_bus);
    if (sigsetjmp(sympu_walk_jb, 1) == 0) {
        for (size_t k = 0; k < n && sympu_walk_room(); k++) {
            const unsigned char *q = (const unsigned char *)p + k * elem;
            char tail[32];
            snprintf(tail, sizeof tail, "[%zu]", k);
            if (elem == 1) {
                if (is_signed)
                    sympu_wline(tail, "i", "%d", (int)(signed char)*q);
                else
                    sympu_wline(tail, "u", "%u", (unsigned)*q);
            } else if (elem == 2) {
                uint16_t v;
                memcpy(&v, q, 2);
                if (is_signed)
                    sympu_wline(tail, "i", "%d", (int)(int16_t)v);
                else
                    sympu_wline(tail, "u", "%u", (unsigned)v);
            } else if (elem == 4) {
                uint32_t v;
                memcpy(&v, q, 4);
                if (is_signed)
                    sympu_wline(tail, "i", "%ld", (long)(int32_t)v);
                else
                    sympu_wline(tail, "u", "%lu", (unsigned long)v);
            } else {
                uint64_t v;
                memcpy(&v, q, 8);
                if (is_signed)
                    sympu_wline(tail, "i", "%lld", (long long)(int64_t)v);
                else
                    sympu_wline(tail, "u", "%llu", (unsigned long long)v);
            }
        }
    }
    sympu_walk_unguard(&old_segv, &old_bus);
}

/* The arguments of a call to a function-pointer stand-in (a callback the unit calls), one
 * `arg NAME K KIND VALUE` line each, before the call's `mock` line: integers (i, u), enumerators
 * (e), a const char * as its text (s; NULL as p 0; v when longer than 200 bytes), other pointers
 * as p (an input object, 0, or -1 for any other address). */
static void sympu_arg_i(const char *fn, int k, long long v) { sympu_rec("arg %s %d i %lld\n", fn, k, v); }
static void sympu_arg_u(const char *fn, int k, unsigned long long v) { sympu_rec("arg %s %d u %llu\n", fn, k, v); }
static void sympu_arg_e(const char *fn, int k, const char *v) { sympu_rec("arg %s %d e %s\n", fn, k, v); }
static void sympu_arg_p(const char *fn, int k, const void *p)
{
    char buf[32];
    sympu_rec("arg %s %d p %s\n", fn, k, sympu_ptr_text(p, buf));
}
static void sympu_arg_s(const char *fn, int k, const char *s)
{
    char lit[200 * 6 + 1];
    if (!s)
        sympu_rec("arg %s %d p 0\n", fn, k);
    else if (sympu_escape(s, 200, lit, sizeof lit) == 0)
        sympu_rec("arg %s %d s %s\n", fn, k, lit);
    else
        sympu_rec("arg %s %d v -\n", fn, k);
}

/* A callback's text argument followed by its length (`on_url(p, const char *at, size_t length)`: the
 * bytes are no C string, the parser's buffer goes on past them): the n bytes, `m BODY`; NULL as a
 * pointer; more than 200 bytes not recorded. */
static void sympu_arg_m(const char *fn, int k, const char *s, unsigned long long n)
{
    char lit[200 * 6 + 1];
    if (!s)
        sympu_rec("arg %s %d p 0\n", fn, k);
    else if (n > 200)
        sympu_rec("arg %s %d v -\n", fn, k);
    else {
        sympu_escape_n(s, (size_t)n, lit, sizeof lit);
        sympu_rec("arg %s %d m %s\n", fn, k, lit);
    }
}

/* A callback's text argument followed by an integer n of unknown meaning (`const char *buf, int
 * len`, or a key and its value): its n bytes (`m`) when 0 <= n <= 200 and no NUL lies within
 * them (a buffer the unit did not terminate: reading it as a C string would go past them), else
 * its text (sympu_arg_s). memchr stops at the first NUL: nothing past a string is read. */
static void sympu_arg_sn(const char *fn, int k, const char *s, long long n)
{
    if (s && n >= 0 && n <= 200 && !memchr(s, 0, (size_t)n))
        sympu_arg_m(fn, k, s, (unsigned long long)n);
    else
        sympu_arg_s(fn, k, s);
}

static void sympu_pf(const char *phase, int id, const char *lv, const void *p)
{
    const char *n = p ? sympu_stub_name(p) : "NULL";
    sympu_rec("%s %d %s f %s\n", phase, id, *lv ? lv : "-", n ? n : "?");
}
#else
#define sympu_pi(...) ((void)0)
#define sympu_pu(...) ((void)0)
#define sympu_pe(...) ((void)0)
#define sympu_pd(...) ((void)0)
#define sympu_pp(...) ((void)0)
#define sympu_pf(...) ((void)0)
#define sympu_px(...) ((void)0)
#define sympu_ret_str(...) ((void)0)
static void sympu_dump_byte(const void *o, const char *lv, const char *phase, int id)
{
    (void)o, (void)lv, (void)phase, (void)id;
}
#endif

#endif
