/* replay.c: replay library linked natively into a program under test; input functions return the values of a Test-Comp testcase file. */

/*
 * Self-contained on purpose: `sympath replay` compiles this one file with gcc
 * next to the user's sources, so it depends on libc only and uses none of the
 * program's symbols except that its weak reach_error/__VERIFIER_error give way
 * to the program's own definitions.
 *
 * The testcase named by env SYMPATH_TESTCASE is read on the first input call:
 * the text of every <input ...>value</input> element, in document order, becomes
 * the input vector. Without SYMPATH_TESTCASE every input is 0, and so is every
 * input beyond the end of the vector. An unreadable testcase file ends the
 * program with exit code 125 (the run would not test what was asked).
 *
 * Built with -DSYMPATH_REPLAY_GCOV (done by `sympath replay --coverage`), the
 * library also flushes gcov counters before the program dies from a signal or
 * reaches an error function, so crashing tests still count towards coverage. Runs killed on time-out are not flushed: a dump
 * in the middle of a loop leaves arc counts that gcov reports as inconsistent.
 */
/* the POSIX and GNU parts of libc it uses (sigaction, syscall, mmap flags) must be declared
 * even when the user's flags say -std=c11 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "sympath_env.h" /* src/proto/env.h, copied next to this file in lib/ */

/* ---- the input vector ---- */

static char **g_vals; /* the input texts, entities decoded, trimmed */
static size_t g_nvals, g_cap, g_next;
static int g_loaded;

/* The library's system calls are made directly: SV-COMP harnesses often define
 * their own read(), mmap(), ... with nondet results, and those definitions would
 * receive the library's calls too. */
static void *sys_map(size_t n)
{
    void *b = (void *)syscall(SYS_mmap, NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (b == MAP_FAILED) {
        fputs("replay: out of memory\n", stderr);
        exit(125);
    }
    return b;
}

/* All of the library's memory comes from its own mmap'd blocks and is never
 * given back to malloc. In the executor the program starts with an untouched
 * heap; chunks the library freed (a FILE, a grown array) would hand the
 * program's next malloc old bytes instead, and a test that reads
 * uninitialised heap memory would take another path natively. */
static char *g_arena;
static size_t g_arena_left;

static void *xalloc(size_t n)
{
    n = (n + 15) & ~(size_t)15;
    if (n > g_arena_left) {
        size_t sz = n > (1u << 20) ? n : (1u << 20);
        void *b = sys_map(sz);
        g_arena = b;
        g_arena_left = sz;
    }
    void *p = g_arena;
    g_arena += n;
    g_arena_left -= n;
    return p;
}

/* Decode the character data s[0..n): entities (&lt; &gt; &amp; &quot; &apos;
 * &#N; &#xN; for ASCII), comments dropped, surrounding whitespace trimmed. */
static char *decode_text(const char *s, size_t n)
{
    char *out = xalloc(n + 1);
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        if (s[i] == '<' && n - i >= 4 && memcmp(s + i, "<!--", 4) == 0) {
            const char *e = strstr(s + i + 4, "-->");
            i = e && (size_t)(e - s) < n ? (size_t)(e - s) + 3 : n;
            continue;
        }
        if (s[i] != '&') {
            out[o++] = s[i++];
            continue;
        }
        static const struct {
            const char *ent;
            char c;
        } ents[] = {{"&lt;", '<'}, {"&gt;", '>'}, {"&amp;", '&'}, {"&quot;", '"'}, {"&apos;", '\''}};
        int hit = 0;
        for (size_t k = 0; k < sizeof ents / sizeof ents[0] && !hit; k++) {
            size_t l = strlen(ents[k].ent);
            if (n - i >= l && memcmp(s + i, ents[k].ent, l) == 0) {
                out[o++] = ents[k].c;
                i += l;
                hit = 1;
            }
        }
        if (!hit && n - i >= 3 && s[i + 1] == '#') {
            char *end;
            int hex = s[i + 2] == 'x' || s[i + 2] == 'X';
            long c = strtol(s + i + (hex ? 3 : 2), &end, hex ? 16 : 10);
            if ((size_t)(end - s) < n && *end == ';' && c > 0 && c < 128) {
                out[o++] = (char)c;
                i = (size_t)(end - s) + 1;
                hit = 1;
            }
        }
        if (!hit) out[o++] = s[i++];
    }
    size_t b = 0;
    while (b < o && strchr(" \t\r\n", out[b])) b++;
    while (o > b && strchr(" \t\r\n", out[o - 1])) o--;
    memmove(out, out + b, o - b);
    out[o - b] = '\0';
    return out;
}

static void push_value(char *v)
{
    if (g_nvals == g_cap) {
        char **old = g_vals;
        g_cap = g_cap ? 2 * g_cap : 64;
        g_vals = xalloc(g_cap * sizeof *g_vals);
        if (g_nvals) memcpy(g_vals, old, g_nvals * sizeof *g_vals);
    }
    g_vals[g_nvals++] = v;
}

/* Collect the <input> elements of doc. Comments, processing instructions and
 * the DOCTYPE are skipped, so "<input" inside them does not count. */
static void parse_testcase(const char *doc)
{
    const char *p = doc;
    while ((p = strchr(p, '<')) != NULL) {
        if (strncmp(p, "<!--", 4) == 0) {
            const char *e = strstr(p + 4, "-->");
            if (!e) return;
            p = e + 3;
            continue;
        }
        if (strncmp(p, "<input", 6) != 0 || !strchr(" \t\r\n/>", p[6])) {
            p++;
            continue;
        }
        /* find the end of the start tag, skipping quoted attribute values */
        const char *q = p + 6;
        char quote = 0;
        for (; *q && (quote || *q != '>'); q++)
            if (quote ? *q == quote : (*q == '"' || *q == '\'')) quote = quote ? 0 : *q;
        if (!*q) return;
        if (q[-1] == '/') { /* <input .../>: empty value */
            push_value(decode_text("", 0));
            p = q + 1;
            continue;
        }
        const char *body = q + 1;
        const char *end = strstr(body, "</input");
        if (!end) end = body + strlen(body);
        push_value(decode_text(body, (size_t)(end - body)));
        p = end;
    }
}

static int g_from_file; /* a test case was given: running past its end ends the program */

static void load(void)
{
    g_loaded = 1;
    const char *path = getenv(SYMPATH_ENV_TESTCASE);
    if (!path || !*path) return;
    g_from_file = 1;
    /* open/read, not fopen: fclose would free the FILE and its buffer (see xalloc) */
    int fd = (int)syscall(SYS_openat, AT_FDCWD, path, O_RDONLY);
    if (fd < 0) {
        fprintf(stderr, "replay: cannot read testcase %s: %s\n", path, strerror(errno));
        exit(125);
    }
    size_t cap = 1u << 16, len = 0;
    char *doc = sys_map(cap);
    for (;;) {
        if (len + 1 == cap) {
            char *bigger = sys_map(2 * cap);
            memcpy(bigger, doc, len);
            syscall(SYS_munmap, doc, cap);
            doc = bigger;
            cap *= 2;
        }
        long n = syscall(SYS_read, fd, doc + len, cap - 1 - len);
        if (n > 0)
            len += (size_t)n;
        else if (n == 0 || errno != EINTR)
            break;
    }
    syscall(SYS_close, fd);
    doc[len] = '\0';
    parse_testcase(doc);
    syscall(SYS_munmap, doc, cap);
}

/* The next input text. Without a test case every input reads as 0 (NULL). Past the end
 * of a test case's vector the program ends normally, as the run that produced the test
 * did when it reached its input limit (SYM_INPUTS_DONE_EXIT_CODE in the executor):
 * exit() also writes the gcov counters. */
static const char *next_text(void)
{
    if (!g_loaded) load();
    if (g_next < g_nvals) return g_vals[g_next++];
    if (g_from_file) {
        fprintf(stderr, "replay: the test case's %zu inputs are used up: the program ends here\n", (size_t)g_nvals);
        exit(0);
    }
    return NULL;
}

/* ---- literal parsing ---- */

static int looks_float(const char *s)
{
    int hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    if (!hex && (s[0] == '-' || s[0] == '+')) hex = s[1] == '0' && (s[2] == 'x' || s[2] == 'X');
    for (const char *p = s; *p; p++) {
        if (*p == '.' || (hex ? (*p == 'p' || *p == 'P') : (*p == 'e' || *p == 'E'))) return 1;
    }
    return strstr(s, "inf") || strstr(s, "INF") || strstr(s, "nan") || strstr(s, "NAN");
}

/* An integer input: decimal with sign, 0x hex, 0 octal, true/false, 'c', an
 * optional U/L suffix; a floating literal is converted as C would (truncated).
 * The result is the two's-complement bit pattern; callers cast to their type. */
static uint64_t next_int(void)
{
    const char *s = next_text();
    if (!s || !*s) return 0;
    if (strcmp(s, "true") == 0) return 1;
    if (strcmp(s, "false") == 0) return 0;
    if (s[0] == '\'' && s[1]) return (uint64_t)(int64_t)(signed char)s[1];
    if (looks_float(s)) {
        double d = strtod(s, NULL);
        if (d != d) return 0;
        if (d < 0) return d <= -9223372036854775808.0 ? (uint64_t)INT64_MIN : (uint64_t)(int64_t)d;
        return d >= 18446744073709551616.0 ? UINT64_MAX : (uint64_t)d;
    }
    if (s[0] == '-') return (uint64_t)strtoll(s, NULL, 0);
    return strtoull(s, NULL, 0);
}

static double next_double(void)
{
    const char *s = next_text();
    if (!s || !*s) return 0.0;
    if (strcmp(s, "true") == 0) return 1.0;
    if (strcmp(s, "false") == 0) return 0.0;
    return strtod(s, NULL);
}

static float next_float(void)
{
    const char *s = next_text();
    if (!s || !*s) return 0.0f;
    if (strcmp(s, "true") == 0) return 1.0f;
    if (strcmp(s, "false") == 0) return 0.0f;
    return strtof(s, NULL); /* direct, so hex floats and decimals round once */
}

/* 128-bit inputs: digits read into 128 bits (values wider than 64 bits survive). */
static unsigned __int128 next_int128(void)
{
    const char *s = next_text();
    if (!s || !*s) return 0;
    if (looks_float(s) || s[0] == '\'' || strcmp(s, "true") == 0 || strcmp(s, "false") == 0) {
        g_next--; /* let the 64-bit path interpret it */
        return (unsigned __int128)(__int128)(int64_t)next_int();
    }
    int neg = *s == '-';
    if (*s == '-' || *s == '+') s++;
    unsigned base = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
    }
    unsigned __int128 v = 0;
    for (;; s++) {
        unsigned d;
        if (*s >= '0' && *s <= '9')
            d = (unsigned)(*s - '0');
        else if (base == 16 && *s >= 'a' && *s <= 'f')
            d = (unsigned)(*s - 'a' + 10);
        else if (base == 16 && *s >= 'A' && *s <= 'F')
            d = (unsigned)(*s - 'A' + 10);
        else
            break;
        v = v * base + d;
    }
    return neg ? -v : v;
}

/* ---- coverage flushing (only with -DSYMPATH_REPLAY_GCOV) ---- */

#ifdef SYMPATH_REPLAY_GCOV
void __gcov_dump(void);

static void flush_and_reraise(int sig)
{
    __gcov_dump();
    signal(sig, SIG_DFL);
    raise(sig);
}

__attribute__((constructor)) static void replay_install_handlers(void)
{
    /* The handler runs on its own stack: a SIGSEGV from a stack overflow (deep
     * recursion) would otherwise find no stack to run on, and the test's
     * coverage would be lost although sympath counted it. */
    static char alt[1 << 16];
    stack_t ss = {.ss_sp = alt, .ss_size = sizeof alt, .ss_flags = 0};
    sigaltstack(&ss, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = flush_and_reraise;
    sa.sa_flags = SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    static const int sigs[] = {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) sigaction(sigs[i], &sa, NULL);
}
#define FLUSH_COVERAGE() __gcov_dump()
#else
#define FLUSH_COVERAGE() ((void)0)
#endif

#ifdef SYMPATH_UNIT_MUTANTS
/* The mutant the schemata of build_mutants (src/instrument/mutate.c) select: env SYMPATH_MUTANT, -1 (the
 * original) when unset. SYMPATH_MUTANT=list:ID,ID,... runs a batch without a new process per mutant: each
 * mutant (-1: none) runs in a child forked here, before main, that writes its record to RECORD.ID
 * (RECORD: env SYMPATH_UNIT_RECORD) and is stopped by SIGALRM after ten times the original's (-1) time,
 * 20 to 100 ms (0.1 s when the original does not come first); the parent writes "ID STATUS"
 * lines (the wait status) to RECORD.status and ends. Id -2 runs the original and writes, at exit, the ids of
 * the mutants whose value differed from the original's where they were evaluated (__sym_mut_hit, set by
 * the schemata) to RECORD.infect, one per line. */
int __sym_mutant = -1;
unsigned char __sym_mut_hit[65536]; /* per mutant: its value differed from the original's (weak mutation) */
static char *infect_path;           /* an infection run (batch id -2): where its ids go at exit */
__attribute__((destructor)) static void replay_write_infected(void)
{
    if (!infect_path) return;
    FILE *f = fopen(infect_path, "w");
    if (!f) return;
    for (unsigned i = 0; i < sizeof __sym_mut_hit; i++)
        if (__sym_mut_hit[i]) fprintf(f, "%u\n", i);
    fclose(f);
}
__attribute__((constructor)) static void replay_select_mutant(void)
{
    const char *m = getenv(SYMPATH_ENV_MUTANT);
    if (!m || !*m) return;
    if (strncmp(m, "list:", 5)) {
        __sym_mutant = atoi(m);
        return;
    }
    const char *rec = getenv(SYMPATH_ENV_UNIT_RECORD);
    if (!rec) _exit(125);
    char path[4096];
    snprintf(path, sizeof path, "%s.status", rec);
    FILE *st = fopen(path, "w");
    if (!st) _exit(125);
    long limit_us = 100000;
    for (const char *p = m + 5; *p;) {
        char *e;
        long id = strtol(p, &e, 10);
        if (e == p) break;
        p = *e == ',' ? e + 1 : e;
        char rp[4096];
        snprintf(rp, sizeof rp, "%s.%ld", rec, id);
        unlink(rp);
        fflush(NULL);
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        pid_t c = fork();
        if (c == 0) {
            setenv(SYMPATH_ENV_UNIT_RECORD, rp, 1);
            __sym_mutant = id == -2 ? -1 : (int)id;
            if (id == -2) { /* the original, writing the mutants it infected to RECORD.infect */
                static char ip[4200];
                snprintf(ip, sizeof ip, "%s.infect", rec);
                unlink(ip);
                infect_path = ip;
            }
            struct itimerval it = {{0, 0}, {0, limit_us}};
            setitimer(ITIMER_REAL, &it, NULL);
            return; /* on to main, as this mutant */
        }
        int ws = 0;
        if (c < 0 || waitpid(c, &ws, 0) < 0) ws = -1;
        clock_gettime(CLOCK_MONOTONIC, &t1);
        if (id == -1) { /* the original: a mutant may take ten times as long, 20 to 100 ms */
            long us = (t1.tv_sec - t0.tv_sec) * 1000000L + (t1.tv_nsec - t0.tv_nsec) / 1000;
            limit_us = us * 10 < 20000 ? 20000 : us * 10 > 100000 ? 100000 : us * 10;
        }
        fprintf(st, "%ld %d\n", id, ws);
    }
    fclose(st);
    _exit(0);
}
#endif

/* ---- SV-COMP / Test-Comp input functions ---- */

/* The ones narrower than 64 bits return their value extended to the whole register
 * (an alias of a function returning long long), exactly as the executor's runtime
 * does: a program that declares one with another return type (`int
 * __VERIFIER_nondet_bool()`, no prototype) reads the same value in both. */
#define NARROW_NONDET(T, name, ext)                                           \
    static long long name##_wide(void) { return (long long)(ext)next_int(); } \
    T name(void) __attribute__((alias(#name "_wide")));
NARROW_NONDET(int, __VERIFIER_nondet_int, int)
NARROW_NONDET(unsigned int, __VERIFIER_nondet_uint, unsigned int)
NARROW_NONDET(unsigned int, __VERIFIER_nondet_unsigned, unsigned int)
long __VERIFIER_nondet_long(void) { return (long)next_int(); }
unsigned long __VERIFIER_nondet_ulong(void) { return (unsigned long)next_int(); }
long long __VERIFIER_nondet_longlong(void) { return (long long)next_int(); }
unsigned long long __VERIFIER_nondet_ulonglong(void) { return (unsigned long long)next_int(); }
NARROW_NONDET(char, __VERIFIER_nondet_char, char)
NARROW_NONDET(unsigned char, __VERIFIER_nondet_uchar, unsigned char)
NARROW_NONDET(signed char, __VERIFIER_nondet_schar, signed char)
NARROW_NONDET(short, __VERIFIER_nondet_short, short)
NARROW_NONDET(unsigned short, __VERIFIER_nondet_ushort, unsigned short)
static long long nondet_bool_wide(void) { return next_int() != 0; }
_Bool __VERIFIER_nondet_bool(void) __attribute__((alias("nondet_bool_wide")));
_Bool __VERIFIER_nondet__Bool(void) __attribute__((alias("nondet_bool_wide")));
float __VERIFIER_nondet_float(void) { return next_float(); }
double __VERIFIER_nondet_double(void) { return next_double(); }
void *__VERIFIER_nondet_pointer(void) { return (void *)(uintptr_t)next_int(); }
char *__VERIFIER_nondet_pchar(void) { return (char *)(uintptr_t)next_int(); }
size_t __VERIFIER_nondet_size_t(void) { return (size_t)next_int(); }
NARROW_NONDET(unsigned char, __VERIFIER_nondet_u8, unsigned char)
NARROW_NONDET(unsigned short, __VERIFIER_nondet_u16, unsigned short)
NARROW_NONDET(unsigned int, __VERIFIER_nondet_u32, unsigned int)
unsigned long long __VERIFIER_nondet_u64(void) { return (unsigned long long)next_int(); }
long long __VERIFIER_nondet_loff_t(void) { return (long long)next_int(); }
unsigned long __VERIFIER_nondet_sector_t(void) { return (unsigned long)next_int(); }
unsigned __int128 __VERIFIER_nondet_uint128(void) { return next_int128(); }
__int128 __VERIFIER_nondet_int128(void) { return (__int128)next_int128(); }

/* The input functions of other names that `sympath run` defined from their declared
 * types (OUT/build/nondet.bc, compiled next to this file) call this one, as in the
 * executor's runtime: the value of `width` bits extended to 64 by its signedness. */
uint64_t __sym_input_int(uint32_t it, uint32_t width, uint32_t is_signed)
{
    uint64_t v = next_int();
    if (width >= 1 && width < 64) {
        uint64_t mask = ((uint64_t)1 << width) - 1;
        v &= mask;
        if (is_signed && (v >> (width - 1)) & 1) v |= ~mask;
    }
    return v;
}

void __VERIFIER_assume(int cond)
{
    if (!cond) {
        fputs("replay: assumption violated\n", stderr);
        exit(0);
    }
}

/* ---- symbolic command line, stdin and files (`sympath run --sym-args/--sym-stdin/--sym-file`) ----
 * Built with -DSYMPATH_REPLAY_POSIX, the generated OUT/build/posix_conf.c and the link
 * options -Wl,--wrap=main,--wrap=fopen,--wrap=open,--wrap=fopen64,--wrap=open64 (done by `sympath replay`): the
 * program's main is called by __wrap_main, which reads the input prefix in the
 * executor's order (models_io.c, docs/design.md): extra_args, argv bytes, stdin.len and
 * bytes, then per file its length and bytes. Standard input becomes a memfd on fd 0
 * holding stdin.len bytes; opening a --sym-file name for reading gives a fresh memfd
 * with its bytes, so every libc read function sees them natively. */
#ifdef SYMPATH_REPLAY_POSIX
#include <stdarg.h>
struct sym_posix_conf {
    unsigned enabled, args_on, args_min, args_max, arg_len, stdin_on, stdin_max, nfiles;
    const char *const *file_names;
    const unsigned *file_sizes;
};
extern const struct sym_posix_conf __sym_posix_conf;
int __real_main(int argc, char **argv, char **envp);
FILE *__real_fopen(const char *path, const char *mode);
int __real_open(const char *path, int flags, ...);
FILE *__real_fopen64(const char *path, const char *mode);
int __real_open64(const char *path, int flags, ...);

static unsigned char **g_file_data;
static unsigned *g_file_len;

/* A source's length (checked against max as the executor's assumption does) and max bytes. */
static unsigned char *read_source(unsigned max, unsigned *len)
{
    unsigned l = (unsigned)next_int();
    __VERIFIER_assume(l <= max);
    unsigned char *d = xalloc(max + 1);
    for (unsigned i = 0; i < max; i++) d[i] = (unsigned char)next_int();
    *len = l;
    return d;
}

/* A memfd at offset 0 holding n bytes of d; exits 125 when the system refuses. */
static int bytes_fd(const char *name, const unsigned char *d, unsigned n)
{
    int fd = (int)syscall(SYS_memfd_create, name, 0);
    if (fd < 0) {
        fprintf(stderr, "replay: cannot create the contents of %s: %s\n", name, strerror(errno));
        exit(125);
    }
    for (unsigned off = 0; off < n;) {
        long w = syscall(SYS_write, fd, d + off, n - off);
        if (w <= 0) {
            fprintf(stderr, "replay: cannot write the contents of %s\n", name);
            exit(125);
        }
        off += (unsigned)w;
    }
    syscall(SYS_lseek, fd, 0, SEEK_SET);
    return fd;
}

int __wrap_main(int argc, char **argv, char **envp)
{
    const struct sym_posix_conf *c = &__sym_posix_conf;
    if (c->args_on) {
        unsigned extra = (unsigned)next_int();
        __VERIFIER_assume(extra <= c->args_max - c->args_min);
        char **av = xalloc((c->args_max + 2) * sizeof *av);
        av[0] = argv[0];
        for (unsigned i = 1; i <= c->args_max; i++) {
            char *a = xalloc(c->arg_len + 1);
            for (unsigned k = 0; k < c->arg_len; k++) a[k] = (char)next_int();
            a[c->arg_len] = '\0';
            av[i] = a;
        }
        argc = 1 + (int)(c->args_min + extra);
        av[argc] = NULL;
        argv = av;
    }
    if (c->stdin_on) {
        unsigned len;
        unsigned char *d = read_source(c->stdin_max, &len);
        int fd = bytes_fd("stdin", d, len);
        if (fd != 0) {
            syscall(SYS_dup2, fd, 0);
            syscall(SYS_close, fd);
        }
    }
    if (c->nfiles) {
        g_file_data = xalloc(c->nfiles * sizeof *g_file_data);
        g_file_len = xalloc(c->nfiles * sizeof *g_file_len);
        for (unsigned i = 0; i < c->nfiles; i++) g_file_data[i] = read_source(c->file_sizes[i], &g_file_len[i]);
    }
    return __real_main(argc, argv, envp);
}

/* A fresh descriptor with the bytes of the --sym-file named path ("./name" names "name"
 * too, as in models_io.c), or -1 when it is not one. */
static int sym_file_fd(const char *path)
{
    const struct sym_posix_conf *c = &__sym_posix_conf;
    while (path && path[0] == '.' && path[1] == '/') path += 2;
    for (unsigned i = 0; path && g_file_data && i < c->nfiles; i++)
        if (strcmp(c->file_names[i], path) == 0) return bytes_fd(path, g_file_data[i], g_file_len[i]);
    return -1;
}

FILE *__wrap_fopen(const char *path, const char *mode)
{
    int fd = mode && mode[0] == 'r' && !strchr(mode, '+') ? sym_file_fd(path) : -1;
    return fd < 0 ? __real_fopen(path, mode) : fdopen(fd, "r");
}

int __wrap_open(const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    int mode = (flags & O_CREAT) ? va_arg(ap, int) : 0;
    va_end(ap);
    int fd = (flags & O_ACCMODE) == O_RDONLY ? sym_file_fd(path) : -1;
    return fd < 0 ? __real_open(path, flags, mode) : fd;
}

/* the names the headers use with _FILE_OFFSET_BITS=64 */
FILE *__wrap_fopen64(const char *path, const char *mode)
{
    int fd = mode && mode[0] == 'r' && !strchr(mode, '+') ? sym_file_fd(path) : -1;
    return fd < 0 ? __real_fopen64(path, mode) : fdopen(fd, "r");
}

int __wrap_open64(const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    int mode = (flags & O_CREAT) ? va_arg(ap, int) : 0;
    va_end(ap);
    int fd = (flags & O_ACCMODE) == O_RDONLY ? sym_file_fd(path) : -1;
    return fd < 0 ? __real_open64(path, flags, mode) : fd;
}
#endif

/* Weak: a program that defines its own reach_error (SV-COMP programs usually
 * do, calling __assert_fail) keeps it; one that only declares it gets this. */
__attribute__((weak)) void reach_error(void)
{
    fputs("reach_error reached\n", stderr);
    FLUSH_COVERAGE();
    abort();
}

__attribute__((weak)) void __VERIFIER_error(void)
{
    fputs("reach_error reached\n", stderr);
    FLUSH_COVERAGE();
    abort();
}

/* ---- sympath.h ---- */

int sym_int(const char *name) { return (int)next_int(); }

/* The streams __sym_unit_stream made, for __sym_unit_stream_data. */
static struct unit_stream {
    FILE *f;
    const unsigned char *data;
    unsigned len;
} unit_streams[16];
static size_t unit_nstreams;

/* The executor's __sym_unit_stream (models_io.c) natively: label.len, then max bytes (the
 * same inputs in the same order), the first len of them as a read-only memory stream. */
FILE *__sym_unit_stream(const char *label, unsigned max)
{
    static unsigned char bytes[17 * 4097];
    static size_t used;
    (void)label;
    unsigned len = (unsigned)next_int();
    if (len > max) len = max;
    unsigned char *d = max + 1 <= sizeof bytes - used ? bytes + used : NULL;
    for (unsigned i = 0; i < max; i++) {
        unsigned char c = (unsigned char)next_int();
        if (d) d[i] = c;
    }
    if (!d) return NULL;
    used += max + 1;
    /* an empty stream on /dev/null: fmemopen may refuse size 0 */
    FILE *f = len ? fmemopen(d, len, "r") : fopen("/dev/null", "r");
    if (f && unit_nstreams < sizeof unit_streams / sizeof unit_streams[0])
        unit_streams[unit_nstreams++] = (struct unit_stream){f, d, len};
    return f;
}

/* The bytes a stream __sym_unit_stream returned holds (the recorder writes them to its record):
 * *data (owned by the replay library) and *len. Returns 0, or -1 for a stream it did not make. */
int __sym_unit_stream_data(FILE *f, const unsigned char **data, unsigned *len)
{
    for (size_t i = 0; f && i < unit_nstreams; i++)
        if (unit_streams[i].f == f) {
            *data = unit_streams[i].data;
            *len = unit_streams[i].len;
            return 0;
        }
    return -1;
}
unsigned sym_uint(const char *name) { return (unsigned)next_int(); }
long sym_long(const char *name) { return (long)next_int(); }
unsigned long sym_ulong(const char *name) { return (unsigned long)next_int(); }
char sym_char(const char *name) { return (char)next_int(); }
unsigned char sym_uchar(const char *name) { return (unsigned char)next_int(); }
short sym_short(const char *name) { return (short)next_int(); }
unsigned short sym_ushort(const char *name) { return (unsigned short)next_int(); }
_Bool sym_bool(const char *name) { return next_int() != 0; }
int8_t sym_i8(const char *name) { return (int8_t)next_int(); }
uint8_t sym_u8(const char *name) { return (uint8_t)next_int(); }
int16_t sym_i16(const char *name) { return (int16_t)next_int(); }
uint16_t sym_u16(const char *name) { return (uint16_t)next_int(); }
int32_t sym_i32(const char *name) { return (int32_t)next_int(); }
uint32_t sym_u32(const char *name) { return (uint32_t)next_int(); }
int64_t sym_i64(const char *name) { return (int64_t)next_int(); }
uint64_t sym_u64(const char *name) { return (uint64_t)next_int(); }
size_t sym_size_t(const char *name) { return (size_t)next_int(); }
float sym_float(const char *name) { return next_float(); }
double sym_double(const char *name) { return next_double(); }

uint64_t sym_concrete(uint64_t v) { return v; }

void sym_bytes(void *buf, size_t n, const char *name)
{
    unsigned char *p = buf;
    for (size_t i = 0; i < n; i++) p[i] = (unsigned char)next_int();
}

void sym_assume(int cond) { __VERIFIER_assume(cond); }

void sym_assert(int cond)
{
    if (!cond) {
        fputs("replay: assertion failed (sym_assert)\n", stderr);
        FLUSH_COVERAGE();
        abort();
    }
}

/* ---- database applications (replay_db.c) ---- */

/* Consume n input values without using them: the fixture's values, which the executor
 * read at the program's first sqlite3_open and replay_db.c loads from the test's .sql
 * file instead. Past the end of the vector the program ends as next_text says. */
void __sym_replay_skip_inputs(unsigned long n)
{
    for (unsigned long i = 0; i < n; i++) (void)next_text();
}

/* The next input value as an integer (the fixture's db:fault, which replay_db.c and
 * replay_pq.c read after skipping the fixture's cells). */
unsigned long long __sym_replay_next_int(void) { return next_int(); }
