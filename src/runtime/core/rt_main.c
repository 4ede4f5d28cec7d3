/* rt_main.c: runtime start-up (shared region, fork server, standalone mode), run end, errors, crash signals, fork(). */
#define _GNU_SOURCE
#include <errno.h>
#include <link.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>
#include "rt_internal.h"
#include "../../proto/env.h"

rt_state rt = {.trace_off = 1};

/* Coverage and last-site pointers start at harmless dummies, so fast paths run
 * safely even before (or without) initialisation. */
static uint8_t dummy_cov[1];
static volatile uint32_t dummy_site;
uint8_t *__sym_cov = dummy_cov;
uint32_t __sym_cov_cap;
uint8_t __sym_cov_phase = COV_BIT_SETUP;
volatile uint32_t *__sym_last_site = &dummy_site;
uint32_t __sym_last_slot;

static uintptr_t load_base; /* dlpi_addr of the main program, for position-independent pcs */
static uintptr_t stack_top; /* a frame of rt_init: the program's frames of interest are below it */
static int dump_fd = -1;    /* standalone debugging: SYMPATH_TRACE_DUMP=1 dumps the trace on stderr */

/* The runtime ran out of memory (the run's --mem-limit): a resource problem of the
 * analysis, reported as ERR_OOM rather than as an abort() of the program. */
void rt_out_of_memory(void) { __sym_error(ERR_OOM, 0); }

expr_ctx *rt_cx(void)
{
    if (!rt.cx && !(rt.cx = expr_ctx_new())) rt_out_of_memory();
    return rt.cx;
}

void rt_run_reset(void)
{
    expr_ctx_free(rt.cx);
    rt.cx = NULL;
    rt.next_trace_id = 0;
    rt.trace_full = 0;
    rt_shadow_reset();
    rt_input_reset();
    memset(__sym_params, 0, sizeof __sym_params);
    __sym_ret = NULL;
    memset(__sym_ret_fields, 0, sizeof __sym_ret_fields);
    memset((void *)__sym_byval, 0, sizeof __sym_byval);
    rt_varargs_reset();
    rt_text_value_reset();
}

/* ---- the region ----
 * Default layout of a private region (standalone mode without SYMPATH_SHM_FD). */
#define DEF_INPUTS_CAP 4096u
#define DEF_COV_CAP (1u << 16)
#define DEF_RECS_CAP (1u << 16)

static void attach(trace_header *h)
{
    rt.hdr = h;
    rt.inputs = (uint64_t *)((char *)h + h->inputs_off);
    rt.recs = (trace_rec *)((char *)h + h->recs_off);
    __sym_cov = h->cov_cap ? (uint8_t *)h + h->cov_off : dummy_cov;
    __sym_cov_cap = h->cov_cap > UINT32_MAX ? UINT32_MAX : (uint32_t)h->cov_cap;
    __sym_last_site = &h->last_site;
    rt.trace_off = 0;
}

/* Map a fresh zeroed private region with the given capacities; NULL on failure. */
static trace_header *private_region(uint64_t inputs_cap, uint64_t recs_cap, uint64_t cov_cap)
{
    uint64_t inputs_off = TRACE_HEADER_SIZE;
    uint64_t cov_off = inputs_off + 8 * inputs_cap;
    uint64_t recs_off = (cov_off + cov_cap + 63) & ~63ull;
    uint64_t total = recs_off + recs_cap * sizeof(trace_rec);
    void *p = rt_sys_mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
    trace_header *h = p;
    h->magic = TRACE_MAGIC;
    h->version = 1;
    h->total_size = total;
    h->inputs_off = inputs_off;
    h->inputs_cap = inputs_cap;
    h->cov_off = cov_off;
    h->cov_cap = cov_cap;
    h->recs_off = recs_off;
    h->recs_cap = recs_cap;
    return h;
}

/* Map the explorer's region; NULL when the fd is bad or the header is inconsistent. */
static trace_header *shared_region(int fd)
{
    struct stat st;
    if (rt_sys_fstat(fd, &st) || st.st_size < (off_t)TRACE_HEADER_SIZE) return NULL;
    void *p = rt_sys_mmap(NULL, st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) return NULL;
    trace_header *h = p;
    uint64_t size = st.st_size;
    if (h->magic != TRACE_MAGIC || h->inputs_off + 8 * h->inputs_cap > size || h->cov_off + h->cov_cap > size ||
        h->recs_off + h->recs_cap * sizeof(trace_rec) > size) {
        rt_sys_munmap(p, st.st_size);
        return NULL;
    }
    return h;
}

/* SYMPATH_INPUTS: one value per line, decimal (possibly negative) or 0x hex. */
static void load_inputs_file(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return;
    char line[256];
    uint64_t n = 0;
    while (n < rt.hdr->inputs_cap && fgets(line, sizeof line, f)) {
        char *s = line, *end;
        while (*s == ' ' || *s == '\t') s++;
        if (*s == '\n' || *s == 0 || *s == '#') continue;
        uint64_t v = *s == '-' ? (uint64_t)strtoll(s, &end, 0) : strtoull(s, &end, 0);
        if (end == s) continue;
        rt.inputs[n++] = v;
    }
    fclose(f);
    rt.hdr->ninputs = n;
}

/* ---- end of a run ---- */

static void dump_trace(void);

void rt_end_run(int status)
{
    if (rt.trace_off || rt.hdr->ended) return;
    trace_rec r;
    memset(&r, 0, sizeof r);
    r.type = REC_END;
    r.u.end.status = status;
    rt_trace_append(&r, 1);
    rt.hdr->ended = 1;
    dump_trace();
}

void rt_record_error(uint32_t kind, uint32_t loc, int32_t signo, uint64_t pc)
{
    if (rt.trace_off || rt.hdr->ended) return;
    trace_rec r;
    memset(&r, 0, sizeof r);
    r.type = REC_ERROR;
    r.u.err.kind = (uint8_t)kind;
    r.u.err.loc = loc;
    r.u.err.signo = signo;
    r.u.err.pc = pc;
    rt_trace_append(&r, 1);
    rt.hdr->error_kind = kind;
    rt.hdr->ended = 1;
}

static void exit_hook(int status, void *arg) { rt_end_run(status); }

void __sym_error(uint32_t kind, uint32_t loc)
{
    fflush(stdout);
    fflush(stderr);
    rt_record_error(kind, loc, 0, 0);
    dump_trace();
    _exit(SYM_ERROR_EXIT_CODE);
}

/* Reached only when the program does not define them (the instrumenter already
 * called __sym_error before any call it saw); uninstrumented callers end up here. */
__attribute__((weak)) void reach_error(void) { __sym_error(ERR_REACH, 0); }
__attribute__((weak)) void __VERIFIER_error(void) { __sym_error(ERR_REACH, 0); }

/* ---- crash signals ----
 * The handler runs on an alternate stack, so a stack overflow is caught too. It only
 * stores into the shared region and calls _exit: both async-signal-safe. The pc is
 * made relative to the main program's load base so it is stable across runs (ASLR). */
static const int crash_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS};
static char altstack[64 * 1024];

/* The callers of the faulting function, by the frame-pointer chain (the executor's code
 * keeps frame pointers: its bitcode is compiled at -O0, whose "frame-pointer"="all" survives
 * the -O2 link): each frame holds the caller's frame pointer, then the return address. Only
 * frames between the faulting sp and stack_top are read (mapped stack, growing upwards), so
 * a frame pointer the code used as a plain register ends the walk instead of faulting. The
 * explorer names the first frame in the program's files as the crash's location (errors.c). */
static void crash_frames(uintptr_t fp, uintptr_t sp)
{
    if (rt.trace_off) return;
    unsigned n = 0;
    while (n < TRACE_CRASH_FRAMES && fp >= sp && fp + 16 <= stack_top && (fp & 7) == 0) {
        const uintptr_t *f = (const uintptr_t *)fp;
        uintptr_t ret = f[1];
        if (ret < load_base) break;
        rt.hdr->crash_frames[n++] = ret - load_base;
        if (f[0] <= fp) break; /* the chain runs upwards */
        fp = f[0];
    }
}

static void crash_handler(int sig, siginfo_t *si, void *ucv)
{
    ucontext_t *uc = ucv;
    uint64_t pc = (uint64_t)uc->uc_mcontext.gregs[REG_RIP] - load_base;
    if (sig == SIGABRT)
        rt_record_error(ERR_ABORT, 0, sig, pc);
    else
        rt_record_error(ERR_SIGNAL, 0, sig, pc);
    /* after the record: a walk that faults after all (a thread's stack) loses only the frames */
    crash_frames((uintptr_t)uc->uc_mcontext.gregs[REG_RBP], (uintptr_t)uc->uc_mcontext.gregs[REG_RSP]);
    _exit(SYM_ERROR_EXIT_CODE);
}

static void install_signals(void)
{
    stack_t ss = {.ss_sp = altstack, .ss_size = sizeof altstack, .ss_flags = 0};
    sigaltstack(&ss, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = crash_handler;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER | SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof crash_signals / sizeof crash_signals[0]; i++) sigaction(crash_signals[i], &sa, NULL);
}

static int main_base_cb(struct dl_phdr_info *info, size_t size, void *data)
{
    *(uintptr_t *)data = info->dlpi_addr; /* the first object reported is the main program */
    return 1;
}

/* ---- fork() in the program ---- */
int __sym_fork(void)
{
    pid_t pid = fork();
    if (pid == 0) {
        /* The child shares the region with its parent: it must not write to it. */
        rt.in_fork_child = 1;
        rt.trace_off = 1;
        __sym_cov = dummy_cov;
        __sym_cov_cap = 0;
        __sym_last_site = &dummy_site;
    } else if (pid > 0 && !rt.trace_off) {
        rt.hdr->forks++;
    }
    return pid;
}

/* ---- fork server ---- */

static int env_int(const char *name, int def)
{
    const char *s = getenv(name);
    return s && *s ? atoi(s) : def;
}

static int read_full(int fd, void *buf, size_t n)
{
    for (size_t got = 0; got < n;) {
        ssize_t r = rt_sys_read(fd, (char *)buf + got, n - got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return -1;
        got += r;
    }
    return 0;
}

static int write_full(int fd, const void *buf, size_t n)
{
    for (size_t put = 0; put < n;) {
        ssize_t r = rt_sys_write(fd, (const char *)buf + put, n - put);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return -1;
        put += r;
    }
    return 0;
}

/*
 * The server loop (protocol in trace.h). It returns only in a run's child, which
 * then continues into the program's constructors and main(). The server itself
 * never builds expressions or touches shadow memory, so every child starts with
 * the same empty runtime state. Any protocol failure (the explorer went away)
 * ends the server with _exit(0).
 */
static void fork_server(int ctl, int st, int shm_fd)
{
    int out = env_int(SYMPATH_ENV_OUT_FD, -1);
    long mem_mb = env_int(SYMPATH_ENV_MEM_MB, 0);
    long out_kb = env_int(SYMPATH_ENV_OUT_KB, 1024);
    signal(SIGPIPE, SIG_IGN);
    uint32_t hello = FS_HELLO;
    if (write_full(st, &hello, 4)) _exit(0);
    for (;;) {
        uint32_t cmd;
        if (read_full(ctl, &cmd, 4) || cmd != FS_RUN) _exit(0); /* FS_QUIT, unknown command or explorer gone */
        if (out >= 0) {
            if (rt_sys_ftruncate(out, 0)) { /* not a regular file: nothing to truncate */
            }
            rt_sys_lseek(out, 0, SEEK_SET);
        }
        pid_t pid = fork();
        if (pid == 0) {
            setpgid(0, 0);
            if (mem_mb > 0) {
                struct rlimit rl = {(rlim_t)mem_mb << 20, (rlim_t)mem_mb << 20};
                setrlimit(RLIMIT_AS, &rl);
            }
            if (out_kb > 0) {
                struct rlimit rl = {(rlim_t)out_kb << 10, (rlim_t)out_kb << 10};
                setrlimit(RLIMIT_FSIZE, &rl);
                signal(SIGXFSZ, SIG_IGN); /* writes past the cap fail instead of killing */
            }
            if (out >= 0) {
                dup2(out, 1);
                dup2(out, 2);
                if (out > 2) rt_sys_close(out);
            }
            rt_sys_close(ctl);
            rt_sys_close(st);
            if (shm_fd > 2) rt_sys_close(shm_fd);
            signal(SIGPIPE, SIG_DFL);
            return;
        }
        uint32_t p = pid > 0 ? (uint32_t)pid : 0;
        if (write_full(st, &p, 4)) _exit(0);
        int status = -1;
        if (pid > 0)
            while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
                ;
        int32_t s = status;
        if (write_full(st, &s, 4)) _exit(0);
    }
}

/* Priority 101: before the program's own constructors, which then run in each child. */
__attribute__((constructor(101))) static void rt_init(void)
{
    expr_oom_hook = rt_out_of_memory;
    dl_iterate_phdr(main_base_cb, &load_base);
    stack_top = (uintptr_t)__builtin_frame_address(0);
    const char *shm = getenv(SYMPATH_ENV_SHM_FD), *ctl = getenv(SYMPATH_ENV_CTL_FD);
    const char *st = getenv(SYMPATH_ENV_ST_FD);
    int shm_fd = shm && *shm ? atoi(shm) : -1;
    trace_header *h = shm_fd >= 0 ? shared_region(shm_fd) : NULL;
    if (!h && ctl && *ctl) {
        static const char msg[] = "sympath runtime: cannot map the shared region (SYMPATH_SHM_FD)\n";
        if (rt_sys_write(2, msg, sizeof msg - 1)) {}
        _exit(SYM_ERROR_EXIT_CODE);
    }
    if (!h) h = private_region(DEF_INPUTS_CAP, DEF_RECS_CAP, DEF_COV_CAP);
    if (!h) return; /* no memory at all: run with tracing off */
    attach(h);
    on_exit(exit_hook, NULL);
    rt_objects_init(); /* once, in the server: every run's child inherits the sorted table */
    if (ctl && *ctl && st && *st) {
        fork_server(atoi(ctl), atoi(st), shm_fd);
    } else {
        const char *in = getenv(SYMPATH_ENV_INPUTS);
        if (in && *in) load_inputs_file(in);
        const char *d = getenv(SYMPATH_ENV_TRACE_DUMP);
        if (d && *d == '1') dump_fd = 2;
    }
    rt_run_reset();
    install_signals();
}

/* ---- debugging aid: a readable trace on stderr (standalone, SYMPATH_TRACE_DUMP=1) ---- */
static void dump_trace(void)
{
    if (dump_fd < 0 || rt.trace_off) return;
    trace_header *h = rt.hdr;
    for (uint64_t i = 0; i < h->nrecs; i++) {
        const trace_rec *r = &rt.recs[i];
        switch (r->type) {
        case REC_EXPR:
            dprintf(dump_fd, "e %u %s w%u kids %u %u %u aux %u val 0x%llx\n", r->u.e.id,
                    expr_op_name((expr_op)r->u.e.op), r->u.e.width, r->u.e.kid[0], r->u.e.kid[1], r->u.e.kid[2],
                    r->u.e.aux, (unsigned long long)r->u.e.value);
            break;
        case REC_INPUT:
            dprintf(dump_fd, "in #%u type %u w%u expr %u val 0x%llx\n", r->u.in.index, r->u.in.itype, r->u.in.width,
                    r->u.in.expr_id, (unsigned long long)r->u.in.value);
            break;
        case REC_BRANCH:
            dprintf(dump_fd, "br kind %u site %u cond %u taken %u arg %u\n", r->u.br.kind, r->u.br.site, r->u.br.cond,
                    r->u.br.taken, r->u.br.arg);
            break;
        case REC_ERROR:
            dprintf(dump_fd, "err kind %u loc %u sig %d pc 0x%llx\n", r->u.err.kind, r->u.err.loc, r->u.err.signo,
                    (unsigned long long)r->u.err.pc);
            break;
        case REC_NAME: dprintf(dump_fd, "name \"%.24s\"\n", r->u.name.text); break;
        case REC_END: dprintf(dump_fd, "end %d\n", r->u.end.status); break;
        case REC_MARK: dprintf(dump_fd, "mark\n"); break;
        default: dprintf(dump_fd, "? type %u\n", r->type);
        }
    }
    dprintf(dump_fd, "nrecs %llu dropped %u inputs_read %llu\n", (unsigned long long)h->nrecs, h->dropped,
            (unsigned long long)h->inputs_read);
}

/* ---- unit-test hooks ---- */
static trace_header *test_region;

void rt_test_setup(const uint64_t *inputs, size_t n, uint64_t recs_cap, uint32_t cov_cap)
{
    if (test_region) rt_sys_munmap(test_region, test_region->total_size);
    test_region = private_region(DEF_INPUTS_CAP, recs_cap, cov_cap);
    if (!test_region) abort();
    attach(test_region);
    for (size_t i = 0; i < n && i < DEF_INPUTS_CAP; i++) rt.inputs[i] = inputs[i];
    test_region->ninputs = n;
    rt.in_fork_child = 0;
    rt_run_reset();
}

trace_header *rt_test_header(void) { return rt.hdr; }
const trace_rec *rt_test_records(void) { return rt.recs; }
