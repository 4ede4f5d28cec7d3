/* util.h: the shared helpers of every sympath component: text buffers, files, clocks, processes, word splitting. */
#ifndef SYMPATH_UTIL_H
#define SYMPATH_UTIL_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

/*
 * This component is the one home of small helpers that several components need;
 * none of them knows anything about symbolic execution. Every function reports
 * errors as values (-1/NULL with errno, or a malloc'ed message): none prints or
 * exits. It is linked into the explorer side (libsympath_util) and into the
 * executor's runtime archive (libsympath-rt.a), so it depends on libc only.
 */

/* ---- text buffer (strbuf.c) ---- */

/*
 * A growable NUL-terminated text buffer.
 * Invariant: when s is non-NULL, s[len] == '\0' and len < cap. Allocation
 * failure is sticky: `failed` is set, later appends do nothing, and the owner
 * reports ENOMEM once at the end instead of checking every append.
 */
typedef struct strbuf {
    char *s;
    size_t len, cap;
    int failed;
} strbuf;

/* clang-format off */
#define STRBUF_INIT { NULL, 0, 0, 0 }
/* clang-format on */

/* Append n bytes / a C string / printf-formatted text. */
void sb_append(strbuf *b, const char *p, size_t n);
void sb_puts(strbuf *b, const char *p);
void sb_printf(strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Append s with XML special characters escaped (&<>"' as entities). Characters
 * XML 1.0 cannot carry at all (control characters other than tab, LF, CR) become '?'. */
void sb_xml_escaped(strbuf *b, const char *s);
/* Append s made safe for the inside of an XML comment: no "--", no trailing '-'. */
void sb_xml_comment_text(strbuf *b, const char *s);
/* Release the memory; b becomes empty (reusable). */
void sb_free(strbuf *b);

/* ---- strings (str.c) ---- */

/* printf into a new malloc'ed string (caller frees); NULL when out of memory. */
char *util_strf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Split s into words by the one quoting rule of sympath (used for --cflags,
 * replay.conf values and every command line sympath composes):
 *   - blanks (space, tab, newline) separate words; runs of blanks count once;
 *   - '...' keeps everything up to the next ' literally (no escapes inside);
 *   - "..." keeps blanks; inside it a backslash escapes only " and \ ;
 *   - outside quotes a backslash makes the next character literal;
 *   - no expansion of any kind ($, ~, globs are ordinary characters).
 * The words are appended to *argv (malloc'ed, NULL-terminated, *argc counts
 * them; both may start as NULL/0). s == NULL adds nothing. Returns 0, or -1
 * with *err a malloc'ed message (an unterminated quote, out of memory); the
 * words split before the error stay in *argv.
 */
int util_split_words(const char *s, char ***argv, size_t *argc, char **err);

/* Append a copy of word (blanks and quotes kept: one word, e.g. a path) to the NULL-terminated
 * vector *argv of *argc strings (both may start as NULL/0). 0, or -1 when out of memory (the
 * vector stays valid and NULL-terminated). */
int util_strv_push(char ***argv, size_t *argc, const char *word);

/* Free a NULL-terminated vector of malloc'ed strings and the vector itself (NULL: nothing). */
void util_free_strv(char **v);

/* A decimal unsigned number that is the whole of s (digits only: no sign, no blanks) and at
 * most max into *out: 0, or -1 (s NULL, empty, not all digits, or too large; *out unchanged). */
int util_parse_uint(const char *s, uint64_t max, uint64_t *out);

/* ---- files (file.c) ---- */

/*
 * The whole file at path as a malloc'ed buffer with a NUL after its last byte
 * (so text can be used as a C string); *len (may be NULL) gets its size in bytes.
 * NULL with errno set when it cannot be opened or read, or on out of memory.
 */
char *util_read_file(const char *path, size_t *len);

/*
 * Write len bytes to path so that path is either its old content or the whole new
 * one, never a part: the bytes go to ".<name>.tmp.<pid>" in the same directory (a
 * dot-file: no glob of the suite sees it), are flushed (fsync), then renamed over
 * path, and the directory is fsync'ed (best effort). 0, or -1 with errno (ENOSPC on
 * a full disk, ...), path unchanged and no temporary left behind. Every file of a
 * test suite and every report goes through here (README, "Output").
 */
int util_write_atomic(const char *path, const void *data, size_t len);

/* For the handler of a signal that ends the process (a second Ctrl-C): removes the
 * temporary file of a util_write_atomic in progress, so that nothing half-written is
 * left. Async-signal-safe; does nothing when no write is in progress. */
void util_write_atomic_abandon(void);

/* mkdir -p: create path and its missing parents (mode 0777 & ~umask). 0 when it
 * exists as a directory afterwards, or -1 with errno (ENOTDIR when a file is in the way). */
int util_mkdir_p(const char *path);

/*
 * The entries of dir whose names match the fnmatch(3) pattern (a leading '.' must
 * be matched explicitly), as "dir/name" paths sorted by strcmp, in a malloc'ed
 * NULL-terminated vector (free with util_free_strv); *n (may be NULL) gets the count.
 * A missing directory gives an empty vector; NULL only when out of memory.
 */
char **util_list_dir(const char *dir, const char *pattern, size_t *n);

/* ---- clocks (clock.c) ---- */

/* Seconds of CLOCK_MONOTONIC (arbitrary origin): for durations and deadlines. */
double util_now_s(void);
/* The same in nanoseconds. */
uint64_t util_now_ns(void);
/* Sleep for s seconds (resumed after signals until the time has passed; s <= 0: no sleep). */
void util_sleep_s(double s);

/* ---- sympath's own memory (memory.c) ---- */

/* Bytes of heap the process holds now: malloc's blocks in use and its mmapped ones (glibc mallinfo2),
 * which counts Z3's memory too (it allocates through malloc). Walks malloc's arenas: call it at most a
 * few times a second. */
uint64_t util_heap_in_use(void);
/* The default of --max-memory, MiB: half the machine's physical memory, between 256 and 4096 (KLEE's
 * --max-memory is 2000 by default). */
unsigned util_default_max_memory_mb(void);

/* ---- processes (proc.c) ---- */

/*
 * What to run and how. argv[0] is looked up in PATH (or used as is when it
 * contains a '/'); the child gets stdin from stdin_path (NULL: /dev/null),
 * stdout and stderr to out_path (created or truncated; NULL: inherited) and
 * stderr alone to err_path when given (overrides out_path for stderr), runs in
 * cwd (NULL: unchanged) with env_add ("NAME=value" strings, NULL-terminated, may
 * be NULL) added to its environment. With new_group the child leads its own
 * process group (so a time-out kills everything it started, and the terminal's
 * Ctrl-C reaches only sympath, which decides). timeout_s > 0 kills the child
 * (its group with new_group) with SIGKILL after that many seconds. stop (may be
 * NULL; read only, e.g. a Ctrl-C flag) terminates the child (its group) with
 * SIGTERM once *stop is non-zero, within 20 ms.
 */
typedef struct util_proc {
    char *const *argv;
    char *const *env_add;
    const char *stdin_path;
    const char *out_path;
    const char *err_path;
    const char *cwd;
    double timeout_s;
    int new_group;
    volatile sig_atomic_t *stop;
} util_proc;

/*
 * Run p->argv and wait for it. Returns 0 with *status the wait status (see
 * waitpid(2); an exec failure is exit status 127 with the reason on the child's
 * stderr), 1 when it was killed at its time-out (*status is the wait status of
 * the kill), 2 when it was terminated because *p->stop was set (likewise), -1
 * with errno when it could not be started.
 */
int util_run(const util_proc *p, int *status);

/* The name of a signal ("SIGSEGV") or "signal N" in a static buffer (not thread-safe). */
const char *util_signal_name(int sig);

/* ---- fault injection for tests (fault.c) ---- */

/*
 * Test hook: 1 when the comma-separated list in the environment variable SYMPATH_FAULT
 * names `name` (e.g. SYMPATH_FAULT=solver_fail), else 0. Read at every call (cheap:
 * one getenv), so a test sets it for one run. The hooks and where each is checked are
 * listed in fault.c; production runs never set the variable.
 */
int util_fault(const char *name);

/* ---- pointer map (ptrmap.c) ---- */

/*
 * A hash map from non-NULL pointers (compared by address) to two pointer-sized values a
 * and b, e.g. an LLVM value -> its shadow and second shadow, a block -> its index
 * (stored as (void *)(uintptr_t)i). Open addressing with linear probing over a
 * power-of-two table kept at most half full, so every probe ends at an empty slot.
 * Entries are never removed and the table never shrinks; zero-initialise it
 * (PTRMAP_INIT or memset) before use and release it with ptrmap_clear.
 */
typedef struct ptrmap_ent {
    const void *key;
    void *a, *b;
} ptrmap_ent;
typedef struct ptrmap {
    ptrmap_ent *e;
    size_t cap, n;
} ptrmap;

/* clang-format off */
#define PTRMAP_INIT { NULL, 0, 0 }
/* clang-format on */

/* Map key (non-NULL) to (a, b), replacing what it mapped to. 0, or -1 when out of memory
 * (the map is then unchanged). */
int ptrmap_put(ptrmap *m, const void *key, void *a, void *b);
/* The entry of key (its a and b may be changed in place), or NULL when key is not mapped.
 * Valid until the next ptrmap_put. */
ptrmap_ent *ptrmap_get(const ptrmap *m, const void *key);
/* Free the table; m becomes empty (reusable). */
void ptrmap_clear(ptrmap *m);

#endif
