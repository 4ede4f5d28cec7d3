/* models_io.c: symbolic command line, standard input and named files (--sym-args, --sym-stdin, --sym-file) and the stdio/POSIX read models over them. */

/*
 * Compiled to bitcode with models.c and instrumented like user code (the build
 * redirects a user call of X to __sym_model_X), in the spirit of KLEE's POSIX
 * environment model (Cadar et al., OSDI'08, section 3.3): the program's input bytes
 * are ordinary input symbols, read eagerly at start-up by __sym_posix_main in a fixed
 * order (docs/design.md, "Symbolic command line, stdin and files"):
 *
 *   extra_args                         argc = 1 + args_min + extra_args (<= args_max)
 *   argv[1][0..arg_len-1] ... argv[args_max][...]   each NUL-terminated at arg_len
 *   stdin.len, stdin[0..stdin_max-1]   stdin.len <= stdin_max
 *   file:NAME.len, file:NAME[0..size-1]  per --sym-file, in option order
 *
 * The lengths are symbolic: reading byte `pos` asks `pos < len`, a branch the
 * explorer flips, so a program reading to end of file sees every shorter input too.
 * The replay library (replay.c, SYMPATH_REPLAY_POSIX) reads the same prefix.
 *
 * Streams and descriptors that are not symbolic go to the real libc; a symbolic
 * descriptor is a real one reserved on /dev/null (so numbers never collide), whose
 * reads come from the symbolic bytes. A model calls only its own real name, never
 * another modelled function, so it stays right when models' calls are redirected too.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

/* What the options asked for (layout shared with posix.c's generated file and replay.c). */
struct sym_posix_conf {
    unsigned enabled, args_on, args_min, args_max, arg_len, stdin_on, stdin_max, nfiles;
    const char *const *file_names;
    const unsigned *file_sizes;
};
/* No options: nothing symbolic (the build links the generated definition otherwise). */
__attribute__((weak)) const struct sym_posix_conf __sym_posix_conf;

unsigned char sym_uchar(const char *name);
unsigned sym_uint(const char *name);
void sym_assume(int cond);
int __sym_user_main(int argc, char **argv, char **envp);

#define MAX_SRC 17 /* stdin + 16 files */
#define MAX_FD 1024
#define MAX_STREAMS 64
#define MAX_ARGS 64

/* A symbolic byte source: stdin or one file. len is symbolic, at most max. */
struct sym_src {
    const char *name;
    unsigned max, len;
    unsigned char *data;
};
static struct sym_src srcs[MAX_SRC];
static unsigned nsrcs;
static int stdin_src = -1;

/* Symbolic descriptors: source index + 1 (0: not symbolic), position (concrete). */
static int fd_src[MAX_FD];
static unsigned fd_pos[MAX_FD];

/* Streams over symbolic descriptors. */
struct sym_stream {
    FILE *f;
    int fd, ungot, eof, err;
};
static struct sym_stream streams[MAX_STREAMS];
static int nstreams; /* streams registered (a fast exit for programs without symbolic streams) */

/* ---- small helpers (no libc: the names are built here) ---- */

static int same_str(const char *a, const char *b)
{
    size_t i = 0;
    while (a[i] != '\0' && a[i] == b[i]) i++;
    return a[i] == b[i];
}

static char *put_str(char *p, const char *s)
{
    while (*s) *p++ = *s++;
    return p;
}

static char *put_uint(char *p, unsigned v)
{
    char tmp[16];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n) *p++ = tmp[--n];
    return p;
}

/* The bytes of arguments and sources come from a static pool, not malloc: the program's heap
 * starts as it does natively under replay (replay.c uses its own mmap'd blocks). The options'
 * bounds (posix.c: 16 arguments of 256 bytes, 17 sources of 4096) fit; past it, NULL. */
static unsigned char pool[16 * 257 + MAX_SRC * 4097 + 64];
static unsigned pool_used;

static unsigned char *alloc_bytes(unsigned n)
{
    if (n + 1 > sizeof pool - pool_used) return NULL;
    unsigned char *p = pool + pool_used;
    pool_used += n + 1;
    return p;
}

/* Read a source of at most max bytes: its length, then max bytes. */
static void read_src(struct sym_src *s, const char *label, unsigned max)
{
    static char buf[300];
    s->data = alloc_bytes(max);
    s->max = s->data ? max : 0;
    char *p = put_str(put_str(buf, label), ".len");
    *p = '\0';
    s->len = sym_uint(buf);
    sym_assume(s->len <= max);
    for (unsigned i = 0; i < s->max; i++) {
        p = put_str(buf, label);
        *p++ = '[';
        p = put_uint(p, i);
        *p++ = ']';
        *p = '\0';
        s->data[i] = sym_uchar(buf);
    }
}

/* ---- the start-up wrapper: becomes the executor's main when an option is given ---- */

int __sym_posix_main(int argc, char **argv, char **envp)
{
    const struct sym_posix_conf *c = &__sym_posix_conf;
    static char *args[MAX_ARGS + 2];
    static char buf[300];
    int n = argc;
    char **av = argv;
    if (c->args_on) {
        unsigned extra = sym_uint("extra_args");
        sym_assume(extra <= c->args_max - c->args_min);
        args[0] = argv[0];
        for (unsigned i = 1; i <= c->args_max && i <= MAX_ARGS; i++) {
            char *a = (char *)alloc_bytes(c->arg_len + 1);
            if (!a) break;
            for (unsigned k = 0; k < c->arg_len; k++) {
                char *p = put_str(put_uint(put_str(buf, "argv["), i), "][");
                p = put_uint(p, k);
                *p++ = ']';
                *p = '\0';
                a[k] = (char)sym_uchar(buf);
            }
            a[c->arg_len] = '\0';
            args[i] = a;
        }
        /* argv[argc] = NULL without a symbolic index (a store through one would pin argc):
         * one branch per possible argc, which the explorer flips like any other */
        for (unsigned i = c->args_min + 1; i <= c->args_max + 1 && i <= MAX_ARGS + 1; i++)
            if (i > c->args_min + extra) args[i] = NULL;
        n = 1 + (int)(c->args_min + extra);
        av = args;
    }
    if (c->stdin_on) {
        stdin_src = (int)nsrcs++;
        srcs[stdin_src].name = "stdin";
        read_src(&srcs[stdin_src], "stdin", c->stdin_max);
        fd_src[0] = stdin_src + 1;
        fd_pos[0] = 0;
    }
    for (unsigned i = 0; i < c->nfiles && nsrcs < MAX_SRC; i++) {
        struct sym_src *s = &srcs[nsrcs++];
        s->name = c->file_names[i];
        char *p = put_str(put_str(buf, "file:"), s->name);
        *p = '\0';
        read_src(s, buf, c->file_sizes[i]);
    }
    return __sym_user_main(n, av, envp);
}

/* ---- descriptors and streams ---- */

static int sym_fd(int fd) { return fd >= 0 && fd < MAX_FD && fd_src[fd] != 0; }

/* Next byte of symbolic descriptor fd, or -1 at its (symbolic) end. */
static int src_getc(int fd)
{
    struct sym_src *s = &srcs[fd_src[fd] - 1];
    unsigned pos = fd_pos[fd];
    if (pos >= s->max || pos >= s->len) return -1;
    fd_pos[fd] = pos + 1;
    return s->data[pos];
}

/* The symbolic stream of f, or NULL (stdin counts once --sym-stdin is given). */
static struct sym_stream *stream_of(FILE *f)
{
    if (!f || (!nstreams && stdin_src < 0)) return NULL;
    for (int i = 0; i < MAX_STREAMS; i++)
        if (streams[i].f == f) return &streams[i];
    if (f == stdin && stdin_src >= 0 && fd_src[0] == stdin_src + 1) {
        for (int i = 0; i < MAX_STREAMS; i++)
            if (!streams[i].f) {
                streams[i].f = f;
                streams[i].fd = 0;
                streams[i].ungot = -1;
                streams[i].eof = streams[i].err = 0;
                nstreams++;
                return &streams[i];
            }
    }
    return NULL;
}

static struct sym_stream *add_stream(FILE *f, int fd)
{
    for (int i = 0; i < MAX_STREAMS; i++)
        if (!streams[i].f) {
            streams[i].f = f;
            streams[i].fd = fd;
            streams[i].ungot = -1;
            streams[i].eof = streams[i].err = 0;
            nstreams++;
            return &streams[i];
        }
    return NULL;
}

/* Index + 1 of the --sym-file source named path, or 0 ("./name" names "name" too). */
static int file_src(const char *path)
{
    if (!path) return 0;
    while (path[0] == '.' && path[1] == '/') path += 2;
    for (unsigned i = 0; i < nsrcs; i++)
        if ((int)i != stdin_src && srcs[i].name && same_str(srcs[i].name, path)) return (int)i + 1;
    return 0;
}

static int stream_getc(struct sym_stream *s)
{
    if (s->ungot >= 0) {
        int c = s->ungot;
        s->ungot = -1;
        return c;
    }
    if (!sym_fd(s->fd)) {
        s->err = 1;
        return EOF;
    }
    int c = src_getc(s->fd);
    if (c < 0) {
        s->eof = 1;
        return EOF;
    }
    return c;
}

/* ---- the models ---- */

int __sym_model_fgetc(FILE *f)
{
    struct sym_stream *s = stream_of(f);
    return s ? stream_getc(s) : fgetc(f);
}

int __sym_model_getc(FILE *f)
{
    struct sym_stream *s = stream_of(f);
    return s ? stream_getc(s) : getc(f);
}

int __sym_model_getchar(void)
{
    struct sym_stream *s = stream_of(stdin);
    return s ? stream_getc(s) : getchar();
}

int __sym_model_getc_unlocked(FILE *f)
{
    struct sym_stream *s = stream_of(f);
    return s ? stream_getc(s) : getc_unlocked(f);
}

int __sym_model_fgetc_unlocked(FILE *f)
{
    struct sym_stream *s = stream_of(f);
    return s ? stream_getc(s) : fgetc_unlocked(f);
}

int __sym_model_getchar_unlocked(void)
{
    struct sym_stream *s = stream_of(stdin);
    return s ? stream_getc(s) : getchar_unlocked();
}

/* One byte of push-back per stream, as the C standard guarantees (ISO C 7.21.7.10). */
int __sym_model_ungetc(int c, FILE *f)
{
    struct sym_stream *s = stream_of(f);
    if (!s) return ungetc(c, f);
    if (c == EOF || s->ungot >= 0) return EOF;
    s->ungot = (unsigned char)c;
    s->eof = 0;
    return (unsigned char)c;
}

size_t __sym_model_fread(void *buf, size_t size, size_t n, FILE *f)
{
    struct sym_stream *s = stream_of(f);
    if (!s) return fread(buf, size, n, f);
    if (size == 0 || n == 0) return 0;
    unsigned char *p = buf;
    size_t got = 0, total = size * n;
    while (got < total) {
        int c = stream_getc(s);
        if (c == EOF) break;
        p[got++] = (unsigned char)c;
    }
    return got / size;
}

char *__sym_model_fgets(char *buf, int n, FILE *f)
{
    struct sym_stream *s = stream_of(f);
    if (!s) return fgets(buf, n, f);
    if (n <= 0) return NULL;
    int i = 0;
    while (i < n - 1) {
        int c = stream_getc(s);
        if (c == EOF) break;
        buf[i++] = (char)c;
        if (c == '\n') break;
    }
    if (i == 0) return NULL;
    buf[i] = '\0';
    return buf;
}

ssize_t __sym_model_getdelim(char **line, size_t *cap, int delim, FILE *f)
{
    struct sym_stream *s = stream_of(f);
    if (!s) return getdelim(line, cap, delim, f);
    size_t i = 0;
    for (;;) {
        int c = stream_getc(s);
        if (c == EOF) break;
        if (!*line || i + 2 > *cap) {
            size_t nc = *cap < 64 ? 64 : 2 * *cap;
            char *nl = realloc(*line, nc);
            if (!nl) return -1;
            *line = nl;
            *cap = nc;
        }
        (*line)[i++] = (char)c;
        if (c == delim) break;
    }
    if (i == 0) return -1;
    (*line)[i] = '\0';
    return (ssize_t)i;
}

ssize_t __sym_model_getline(char **line, size_t *cap, FILE *f) { return __sym_model_getdelim(line, cap, '\n', f); }

int __sym_model_feof(FILE *f)
{
    struct sym_stream *s = stream_of(f);
    return s ? s->eof : feof(f);
}

int __sym_model_ferror(FILE *f)
{
    struct sym_stream *s = stream_of(f);
    return s ? s->err : ferror(f);
}

void __sym_model_clearerr(FILE *f)
{
    struct sym_stream *s = stream_of(f);
    if (s)
        s->eof = s->err = 0;
    else
        clearerr(f);
}

int __sym_model_fileno(FILE *f)
{
    struct sym_stream *s = stream_of(f);
    return s ? s->fd : fileno(f);
}

/* A --sym-file opened for reading: a real stream on /dev/null carries the identity. */
FILE *__sym_model_fopen(const char *path, const char *mode)
{
    int src = file_src(path);
    if (!src) return fopen(path, mode);
    FILE *f = fopen("/dev/null", "r");
    if (!f) return NULL;
    int fd = fileno(f);
    if (fd < 0 || fd >= MAX_FD || !add_stream(f, fd)) {
        fclose(f);
        return NULL;
    }
    fd_src[fd] = src;
    fd_pos[fd] = 0;
    return f;
}

/* With _FILE_OFFSET_BITS=64 the headers name them fopen64/open64: same models. */
FILE *__sym_model_fopen64(const char *path, const char *mode)
{
    if (!file_src(path)) return fopen64(path, mode);
    return __sym_model_fopen(path, mode);
}

/* A read stream over a fresh symbolic source of at most max bytes (sympath unit's FILE *
 * parameters): inputs label.len and label[0..max-1], read like a --sym-file's; NULL when
 * the sources or streams are used up. Not yet called by the unit harness (issue 13). */
FILE *__sym_unit_stream(const char *label, unsigned max)
{
    if (nsrcs >= MAX_SRC) return NULL;
    FILE *f = fopen("/dev/null", "r");
    if (!f) return NULL;
    int fd = fileno(f);
    if (fd < 0 || fd >= MAX_FD || !add_stream(f, fd)) {
        fclose(f);
        return NULL;
    }
    struct sym_src *s = &srcs[nsrcs++];
    s->name = NULL; /* no path opens it */
    read_src(s, label, max);
    fd_src[fd] = (int)nsrcs;
    fd_pos[fd] = 0;
    return f;
}

/* fdopen of a symbolic descriptor (e.g. fdopen(0, "r") under --sym-stdin) shares its position. */
FILE *__sym_model_fdopen(int fd, const char *mode)
{
    FILE *f = fdopen(fd, mode);
    if (f && sym_fd(fd) && !add_stream(f, fd)) {
        fclose(f);
        return NULL;
    }
    return f;
}

int __sym_model_fclose(FILE *f)
{
    struct sym_stream *s = stream_of(f);
    if (s) {
        int fd = s->fd, shared = 0;
        s->f = NULL;
        nstreams--;
        for (int i = 0; i < MAX_STREAMS; i++) shared |= streams[i].f && streams[i].fd == fd;
        if (!shared && fd > 0 && fd < MAX_FD) fd_src[fd] = 0;
    }
    return fclose(f);
}

int __sym_model_open(const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    int mode = (flags & O_CREAT) ? va_arg(ap, int) : 0;
    va_end(ap);
    int src = file_src(path);
    if (!src || (flags & O_ACCMODE) != O_RDONLY) return open(path, flags, mode);
    int fd = open("/dev/null", O_RDONLY);
    if (fd < 0 || fd >= MAX_FD) return fd;
    fd_src[fd] = src;
    fd_pos[fd] = 0;
    return fd;
}

int __sym_model_open64(const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    int mode = (flags & O_CREAT) ? va_arg(ap, int) : 0;
    va_end(ap);
    if (!file_src(path) || (flags & O_ACCMODE) != O_RDONLY) return open64(path, flags, mode);
    return __sym_model_open(path, flags, mode);
}

int __sym_model_close(int fd)
{
    if (sym_fd(fd)) fd_src[fd] = 0;
    return close(fd);
}

ssize_t __sym_model_read(int fd, void *buf, size_t n)
{
    if (!sym_fd(fd)) return read(fd, buf, n);
    unsigned char *p = buf;
    size_t got = 0;
    while (got < n) {
        int c = src_getc(fd);
        if (c < 0) break;
        p[got++] = (unsigned char)c;
    }
    return (ssize_t)got;
}

/* New position of a symbolic descriptor for (off, whence), or -1. After SEEK_END the
 * position is symbolic (the length plus off): reads at it are symbolic-index reads, and
 * ftell/lseek return the symbolic length, as a size query should. */
static long seek_pos(int fd, long off, int whence)
{
    struct sym_src *s = &srcs[fd_src[fd] - 1];
    long base;
    if (whence == SEEK_SET)
        base = 0;
    else if (whence == SEEK_CUR)
        base = (long)fd_pos[fd];
    else if (whence == SEEK_END)
        base = (long)s->len;
    else
        return -1;
    return base + off < 0 ? -1 : base + off;
}

off_t __sym_model_lseek(int fd, off_t off, int whence)
{
    if (!sym_fd(fd)) return lseek(fd, off, whence);
    long np = seek_pos(fd, (long)off, whence);
    if (np < 0) return -1;
    fd_pos[fd] = (unsigned)np;
    return (off_t)np;
}

int __sym_model_fstat(int fd, struct stat *st)
{
    int rc = fstat(fd, st);
    if (rc == 0 && sym_fd(fd)) {
        st->st_mode = (st->st_mode & ~(mode_t)S_IFMT) | S_IFREG;
        st->st_size = (off_t)srcs[fd_src[fd] - 1].len;
    }
    return rc;
}

int __sym_model_fseek(FILE *f, long off, int whence)
{
    struct sym_stream *s = stream_of(f);
    if (!s) return fseek(f, off, whence);
    if (!sym_fd(s->fd)) return -1;
    if (whence == SEEK_CUR && s->ungot >= 0) off -= 1;
    long np = seek_pos(s->fd, off, whence);
    if (np < 0) return -1;
    fd_pos[s->fd] = (unsigned)np;
    s->ungot = -1;
    s->eof = 0;
    return 0;
}

long __sym_model_ftell(FILE *f)
{
    struct sym_stream *s = stream_of(f);
    if (!s) return ftell(f);
    if (!sym_fd(s->fd)) return -1;
    return (long)fd_pos[s->fd] - (s->ungot >= 0 ? 1 : 0);
}

/* fseeko/ftello, and the names the headers use with _FILE_OFFSET_BITS=64 (off_t is 64 bits
 * on x86-64 either way, so the models are shared). */
int __sym_model_fseeko(FILE *f, off_t off, int whence)
{
    if (!stream_of(f)) return fseeko(f, off, whence);
    return __sym_model_fseek(f, (long)off, whence);
}

off_t __sym_model_ftello(FILE *f)
{
    if (!stream_of(f)) return ftello(f);
    return (off_t)__sym_model_ftell(f);
}

int __sym_model_fseeko64(FILE *f, off64_t off, int whence)
{
    if (!stream_of(f)) return fseeko64(f, off, whence);
    return __sym_model_fseek(f, (long)off, whence);
}

off64_t __sym_model_ftello64(FILE *f)
{
    if (!stream_of(f)) return ftello64(f);
    return (off64_t)__sym_model_ftell(f);
}

off64_t __sym_model_lseek64(int fd, off64_t off, int whence)
{
    if (!sym_fd(fd)) return lseek64(fd, off, whence);
    return (off64_t)__sym_model_lseek(fd, (off_t)off, whence);
}

int __sym_model_fstat64(int fd, struct stat64 *st)
{
    int rc = fstat64(fd, st);
    if (rc == 0 && sym_fd(fd)) {
        st->st_mode = (st->st_mode & ~(mode_t)S_IFMT) | S_IFREG;
        st->st_size = (off64_t)srcs[fd_src[fd] - 1].len;
    }
    return rc;
}

void __sym_model_rewind(FILE *f)
{
    struct sym_stream *s = stream_of(f);
    if (!s) {
        rewind(f);
        return;
    }
    s->ungot = -1;
    s->eof = s->err = 0;
    if (sym_fd(s->fd)) fd_pos[s->fd] = 0;
}
