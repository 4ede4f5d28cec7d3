/* errors.c: what a run's error is: its kind, its location (error-call site, addr2line of a crash's pc, or the last branch), the key that makes two errors the same, its reproducer. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../report/report.h"
#include "explore_state.h"
#include "util/util.h"

const char *error_kind_name(error_kind k)
{
    switch (k) {
    case ERR_REACH: return "reach_error";
    case ERR_ASSERT: return "assertion";
    case ERR_ABORT: return "abort";
    case ERR_SIGNAL: return "crash";
    case ERR_TIMEOUT: return "timeout";
    case ERR_OOM: return "out-of-memory";
    default: return "none";
    }
}

int error_is_property(error_kind k) { return k == ERR_REACH || k == ERR_ASSERT; }

/* Resolve a pc (relative to the executable's load base) to "file:line" with addr2line.
 * Returns a malloc'ed string or NULL. Results are cached by the caller (errors are few). */
static char *addr2line_lookup(const char *exe, uint64_t pc, char **func)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "addr2line -f -e '%s' 0x%llx 2>/dev/null", exe, (unsigned long long)pc);
    FILE *p = popen(cmd, "r");
    if (!p) return NULL;
    char fn[1024] = "", loc[2048] = "";
    if (!fgets(fn, sizeof fn, p)) fn[0] = 0;
    if (!fgets(loc, sizeof loc, p)) loc[0] = 0;
    pclose(p);
    fn[strcspn(fn, "\n")] = 0;
    loc[strcspn(loc, "\n (")] = 0;
    if (!loc[0] || loc[0] == '?' || strstr(loc, ":0") == loc + strlen(loc) - 2) return NULL;
    if (func) *func = strdup(fn);
    return strdup(loc);
}

/* A location as the user wrote it: paths under the current directory lose that prefix, so
 * debug-info names and addr2line's absolute names look alike. Modifies loc in place. */
static char *relative_to_cwd(char *loc)
{
    char cwd[4096];
    if (!loc || !getcwd(cwd, sizeof cwd)) return loc;
    size_t n = strlen(cwd);
    if (strncmp(loc, cwd, n) == 0 && loc[n] == '/') memmove(loc, loc + n + 1, strlen(loc + n + 1) + 1);
    return loc;
}

/* 1 when loc ("file:line") names a file the program's branch sites come from. */
static int in_user_file(const explore_state *s, const char *loc)
{
    const char *colon = strrchr(loc, ':');
    size_t len = colon ? (size_t)(colon - loc) : strlen(loc);
    for (uint32_t i = 0; i < s->sites.nsites; i++) {
        const site_info *si = &s->sites.sites[i];
        if (!si->user) continue;
        size_t fl = strlen(si->file);
        /* addr2line gives absolute names, debug info may give relative ones */
        if (fl <= len && strncmp(loc + len - fl, si->file, fl) == 0 && (fl == len || loc[len - fl - 1] == '/'))
            return 1;
    }
    for (uint32_t i = 0; i < s->sites.nlocs; i++) {
        const loc_info *l = &s->sites.locs[i];
        size_t fl = strlen(l->file);
        if (fl <= len && strncmp(loc + len - fl, l->file, fl) == 0 && (fl == len || loc[len - fl - 1] == '/')) return 1;
    }
    /* a program without branch sites: compare base names with the sources given */
    const char *lb = loc;
    for (const char *p = loc; p < loc + len; p++)
        if (*p == '/') lb = p + 1;
    for (size_t i = 0; i < s->o->nsources; i++) {
        const char *sb = strrchr(s->o->sources[i], '/');
        sb = sb ? sb + 1 : s->o->sources[i];
        if (strlen(sb) == (size_t)(loc + len - lb) && strncmp(sb, lb, (size_t)(loc + len - lb)) == 0) return 1;
    }
    return 0;
}

static const site_info *site_by_id(const explore_state *s, uint32_t id) { return explore_site(s, id); }

/* The frames of a crash, innermost first, as addr2line -a -f -i resolves them: the pc, then
 * each return address minus one (the call instruction's line); a frame with inlined calls gives
 * one entry per inlined function, innermost first. Fills fn[]/loc[] (malloc'ed) up to max
 * entries, returns their number. One addr2line process for all the addresses. */
static int crash_chain(const char *exe, const run_result *r, char **fn, char **loc, int max)
{
    strbuf cmd = STRBUF_INIT;
    sb_printf(&cmd, "addr2line -a -f -i -e '%s' 0x%llx", exe, (unsigned long long)r->error_pc);
    for (unsigned k = 0; k < TRACE_CRASH_FRAMES && r->crash_frames[k]; k++)
        sb_printf(&cmd, " 0x%llx", (unsigned long long)(r->crash_frames[k] - 1));
    sb_puts(&cmd, " 2>/dev/null");
    FILE *p = cmd.s ? popen(cmd.s, "r") : NULL;
    sb_free(&cmd);
    if (!p) return 0;
    int n = 0;
    char line[2048], prev[2048] = "";
    while (fgets(line, sizeof line, p)) {
        line[strcspn(line, "\n")] = 0;
        if (!strncmp(line, "0x", 2) && !prev[0]) continue; /* -a: the address of the next group */
        if (!prev[0]) {
            snprintf(prev, sizeof prev, "%s", line); /* a function name, its location follows */
            continue;
        }
        line[strcspn(line, " (")] = 0;
        if (n < max) {
            fn[n] = strdup(prev);
            loc[n] = strdup(line);
            n++;
        }
        prev[0] = 0;
    }
    pclose(p);
    return n;
}

/* A function as the user knows it: a libc model under its libc name, a concrete-mode copy
 * under its own. Returns a malloc'ed string. */
static char *user_function_name(const char *fn)
{
    const char *pre = "__sym_model_";
    const char *s = !strncmp(fn, pre, strlen(pre)) ? fn + strlen(pre) : fn;
    char *r = strdup(s);
    char *dot = r ? strstr(r, ".sym_concrete") : NULL;
    if (dot) *dot = 0;
    return r;
}

/* A crash whose pc is outside the program's files (a libc model, the runtime): the location of
 * the innermost caller that is in them, as "FILE:LINE (in CALLEE, called from FUNCTION)", so the
 * report points at the user's call. 0 when no frame is in the program's files. */
static int crash_caller(explore_state *s, const run_result *r, char **where, char **func)
{
    char *fn[32], *loc[32];
    int n = crash_chain(s->o->exe_path, r, fn, loc, 32), found = 0;
    for (int i = 1; i < n && !found; i++) {
        if (!loc[i][0] || loc[i][0] == '?' || !in_user_file(s, loc[i])) continue;
        if (!strcmp(fn[i], "main") && strstr(loc[i], "harness.c"))
            break; /* the unit harness: no caller of the unit's */
        /* the callee the user's code called (strchr), not the runtime's helper that faulted; a hook the
         * instrumentation put in the user's code (__sym_load_slow reading the block a symbolic index
         * points to, as the load itself then would: `types[pattern[i].type]` in tiny-regex-c's re_print)
         * is no call of the user's: the line alone */
        char *in = user_function_name(fn[i - 1]), *by = user_function_name(fn[i]);
        if (!strncmp(fn[i - 1], "__sym_", 6) && strncmp(fn[i - 1], "__sym_model_", 12))
            *where = relative_to_cwd(util_strf("%s", loc[i]));
        else
            *where =
                relative_to_cwd(util_strf("%s (in %s, called from %s)", loc[i], in ? in : fn[i - 1], by ? by : fn[i]));
        *func = by;
        free(in);
        found = *where != NULL;
    }
    for (int i = 0; i < n; i++) {
        free(fn[i]);
        free(loc[i]);
    }
    return found;
}

/* A signal's location from its pc and callers (addr2line), or 0 when none is in the program's files. */
static int signal_location(explore_state *s, const run_result *r, char **where, char **func)
{
    char *fn = NULL;
    char *loc = addr2line_lookup(s->o->exe_path, r->error_pc, &fn);
    if (loc && !in_user_file(s, loc)) {
        /* inside sympath's runtime (a stack overflow while building an expression) or a
         * library: the last branch of the program says more */
        free(loc);
        free(fn);
        loc = fn = NULL;
    }
    if (loc) {
        *where = relative_to_cwd(loc);
        *func = fn;
        return *where != NULL;
    }
    free(fn);
    return crash_caller(s, r, where, func);
}

/* A resolved crash location: the pc and the callers' return addresses, what signal_location made of them. */
struct crash_loc {
    uint64_t pcs[1 + TRACE_CRASH_FRAMES];
    char *where, *func; /* NULL, NULL: not in the program's files */
};

#define CRASH_LOCS_MAX 256u

void explore_crash_locs_free(explore_state *s)
{
    for (uint32_t i = 0; i < s->ncrash_locs; i++) {
        free(s->crash_locs[i].where);
        free(s->crash_locs[i].func);
    }
    free(s->crash_locs);
    s->crash_locs = NULL;
    s->ncrash_locs = 0;
}

/* signal_location once per distinct pc and callers (CRASH_LOCS_MAX of them remembered). */
static int signal_location_cached(explore_state *s, const run_result *r, char **where, char **func)
{
    uint64_t key[1 + TRACE_CRASH_FRAMES] = {r->error_pc};
    for (unsigned k = 0; k < TRACE_CRASH_FRAMES && r->crash_frames[k]; k++) key[k + 1] = r->crash_frames[k];
    for (uint32_t i = 0; i < s->ncrash_locs; i++) {
        const struct crash_loc *c = &s->crash_locs[i];
        if (memcmp(c->pcs, key, sizeof key)) continue;
        if (!c->where) return 0;
        *where = strdup(c->where);
        *func = c->func ? strdup(c->func) : NULL;
        return *where != NULL;
    }
    int found = signal_location(s, r, where, func);
    if (s->ncrash_locs < CRASH_LOCS_MAX) {
        if (!s->crash_locs) s->crash_locs = calloc(CRASH_LOCS_MAX, sizeof *s->crash_locs);
        if (s->crash_locs) {
            struct crash_loc *c = &s->crash_locs[s->ncrash_locs];
            memcpy(c->pcs, key, sizeof key);
            c->where = found && *where ? strdup(*where) : NULL;
            c->func = found && *func ? strdup(*func) : NULL;
            if (!found || c->where) s->ncrash_locs++; /* out of memory: not remembered */
        }
    }
    return found;
}

/* Where an error happened, as "file:line" plus its function, and the key that makes two
 * errors the same (kind + location). */
static void error_location(explore_state *s, const run_result *r, char **where, char **func)
{
    *where = NULL;
    *func = NULL;
    if ((r->error == ERR_REACH || r->error == ERR_ASSERT || r->error == ERR_ABORT) && r->error_loc >= 1 &&
        r->error_loc <= s->sites.nlocs) {
        const loc_info *l = &s->sites.locs[r->error_loc - 1];
        *where = relative_to_cwd(util_strf("%s:%u", l->file, l->line));
        *func = strdup(l->function);
        return;
    }
    if (r->error == ERR_SIGNAL && r->error_pc && signal_location_cached(s, r, where, func)) return;
    const site_info *si = site_by_id(s, r->last_site);
    if (si) {
        *where = relative_to_cwd(util_strf("%s:%u (last branch executed)", si->file, si->line));
        *func = strdup(si->function);
    } else {
        *where = strdup("unknown location");
        *func = strdup("?");
    }
}

static const char *type_names_of_run(const run_result *r, uint32_t i)
{
    return input_type_c_name((input_type)r->itypes[i]);
}

/* Describe a run's inputs in words: "x = 42 (int), in#1 = -1 (char)". */
static char *describe_inputs(const run_result *r)
{
    size_t cap = 256, len = 0;
    char *buf = malloc(cap);
    if (!buf) return NULL;
    buf[0] = 0;
    for (uint32_t i = 0; i < r->ninputs && i < 64; i++) {
        char val[64];
        input_format_value(val, sizeof val, (input_type)r->itypes[i], r->inputs[i]);
        char item[400];
        int n = snprintf(item, sizeof item, "%s  input %u%s%s = %s (%s)\n", "", i, r->inames && r->inames[i] ? " " : "",
                         r->inames && r->inames[i] ? r->inames[i] : "", val, type_names_of_run(r, i));
        if (len + n + 1 > cap) {
            cap = (len + n + 1) * 2;
            char *nb = realloc(buf, cap);
            if (!nb) break;
            buf = nb;
        }
        memcpy(buf + len, item, n + 1);
        len += n;
    }
    if (r->ninputs > 64) {
        char item[64];
        int n = snprintf(item, sizeof item, "  ... %u more inputs\n", r->ninputs - 64);
        char *nb = realloc(buf, len + n + 1);
        if (nb) {
            buf = nb;
            memcpy(buf + len, item, n + 1);
        }
    }
    return buf;
}

/* The error key of a run (kind + location), what makes two errors the same; malloc'ed.
 * *where and *func receive the location (malloc'ed). */
char *explore_error_key(explore_state *s, const run_result *r, char **where, char **func)
{
    error_location(s, r, where, func);
    return util_strf("%s|%d|%s", error_kind_name(r->error), r->error == ERR_SIGNAL ? r->signo : 0,
                     *where ? *where : "");
}

int explore_error_known(const explore_state *s, const char *key)
{
    for (uint32_t i = 0; i < s->nerrors; i++)
        if (strcmp(s->errors[i].key, key) == 0) return 1;
    return 0;
}

/* Record the run's error if it is new: returns 1 when a reproducer was written. */
int explore_handle_error(explore_state *s, const run_result *r)
{
    if (r->error == ERR_NONE) return 0;
    char *where, *func;
    char *key = explore_error_key(s, r, &where, &func);
    if (!key) {
        free(where);
        free(func);
        return 0;
    }
    for (uint32_t i = 0; i < s->nerrors; i++)
        if (strcmp(s->errors[i].key, key) == 0) {
            s->errors[i].hits++;
            free(where);
            free(func);
            free(key);
            return 0;
        }
    if (s->nerrors == s->errors_cap) {
        uint32_t nc = s->errors_cap ? s->errors_cap * 2 : 8;
        error_rec *ne = realloc(s->errors, nc * sizeof *ne);
        if (!ne) {
            free(where);
            free(func);
            free(key);
            return 0;
        }
        s->errors = ne;
        s->errors_cap = nc;
    }
    error_rec *e = &s->errors[s->nerrors++];
    memset(e, 0, sizeof *e);
    e->key = key;
    e->kind = r->error;
    e->signo = r->signo;
    e->where = where;
    e->function = func;
    e->hits = 1;
    e->found_seconds = util_now_s() - s->t0;
    e->found_exec = s->execs;
    e->unconfirmed = r->error == ERR_TIMEOUT && s->timeout_unconfirmed;
    if (error_is_property(r->error))
        s->errors_property++;
    else
        s->errors_other++;
    if (s->par_role == PAR_WORKER) { /* the coordinator writes the reproducer of an error new to all */
        e->number = -1;
        return 1;
    }

    char what[256];
    if (r->error == ERR_SIGNAL)
        snprintf(what, sizeof what, "crash: %s (signal %d)", util_signal_name(r->signo), r->signo);
    else if (r->error == ERR_TIMEOUT && s->timeout_unconfirmed == UNCONFIRMED_HANGS)
        snprintf(what, sizeof what,
                 "timeout: the run did not end within %u ms (not confirmed: the program's first %d "
                 "time-outs were hangs and none was a slow run, so later ones are not run again)",
                 s->o->run_timeout_ms, CONFIRM_HANGS_MAX);
    else if (r->error == ERR_TIMEOUT && s->timeout_unconfirmed)
        snprintf(what, sizeof what,
                 "timeout: the run did not end within %u ms (not confirmed: no budget left to "
                 "run it again with a longer limit; may be a slow run rather than a hang)",
                 s->o->run_timeout_ms);
    else if (r->error == ERR_TIMEOUT)
        snprintf(what, sizeof what, "timeout: the run did not end within %u ms, nor within %u ms when run again (hang)",
                 s->o->run_timeout_ms, s->o->run_timeout_ms * CONFIRM_FACTOR);
    else if (r->error == ERR_REACH)
        snprintf(what, sizeof what, "reach_error: the error function was called (property violation)");
    else if (r->error == ERR_ASSERT)
        snprintf(what, sizeof what, "assertion failed (property violation)");
    else if (r->error == ERR_ABORT)
        snprintf(what, sizeof what, "abort() called");
    else if (r->error == ERR_OOM)
        snprintf(what, sizeof what,
                 "out of memory: the run needed more than --mem-limit %u MiB for the program "
                 "and sympath's expressions (may not happen natively)",
                 s->o->mem_mb);
    else
        snprintf(what, sizeof what, "%s", error_kind_name(r->error));
    char *inputs = describe_inputs(r);
    /* the `where:` line: read back by explore_error_where */
    char *desc =
        util_strf("%s\nwhere: %s in %s\nclass: %s\nfound after %.2f s, execution %llu\ninputs (%u, in call order):\n%s",
                  what, where, func, error_is_property(r->error) ? "property violation" : "other termination",
                  e->found_seconds, (unsigned long long)s->execs, r->ninputs, inputs ? inputs : "");
    free(inputs);
    test_case tc;
    explore_fill_test_case(r, &tc);
    char *err = NULL;
    int num = suite_write_error(s->suite, &tc, desc ? desc : what, &err);
    if (num < 0) {
        explore_output_failed(s, "cannot write an error reproducer", err, errno);
        free(err);
    }
    if (num >= 0 && explore_write_fixture(s, r, "errors/error-%03d.xml", num) != 0) num = -1;
    e->number = num;
    free(desc);
    char repro[64] = "no reproducer: it could not be written";
    if (num >= 0) snprintf(repro, sizeof repro, "errors/error-%03d.xml", num);
    char *note = util_strf("sympath: %s %s at %s (%s)",
                           error_is_property(r->error) ? "found" : "found other termination:", what, where, repro);
    report_progress_note(s->progress, note ? note : what); /* the display keeps it (src/report) */
    free(note);
    return num >= 0;
}

char *explore_error_where(const char *description)
{
    const char *w = description ? strstr(description, "\nwhere: ") : NULL;
    if (!w) return NULL;
    w += 8;
    const char *nl = strchr(w, '\n'), *end = nl ? nl : w + strlen(w), *in = NULL;
    for (const char *p = w; p + 4 <= end; p++)
        if (!strncmp(p, " in ", 4)) in = p; /* the last one: the location may hold "(in strchr, ...)" */
    return strndup(w, (size_t)((in ? in : end) - w));
}
