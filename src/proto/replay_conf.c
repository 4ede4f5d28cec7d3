/* replay_conf.c: OUT/build/replay.conf, its one writer and its one reader (format in proto.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto/proto.h"
#include "proto/proto_int.h"
#include "util/util.h"

void replay_conf_init(replay_conf *c)
{
    memset(c, 0, sizeof *c);
    c->branches_covered = c->branches_total = -1;
}

void replay_conf_free(replay_conf *c)
{
    util_free_strv(c->sources);
    for (size_t i = 0; i < c->nfiles; i++) free(c->files[i].name);
    free(c->files);
    free(c->cflags);
    free(c->include_dir);
    free(c->replaylib);
    free(c->nondet);
    free(c->posixconf);
    free(c->db_schema);
    free(c->replaydb);
    free(c->replaypq);
    replay_conf_init(c);
}

int replay_conf_add_source(replay_conf *c, const char *path)
{
    char **v = realloc(c->sources, (c->nsources + 2) * sizeof *v);
    if (!v) return -1;
    c->sources = v;
    v[c->nsources] = NULL;
    char *s = strdup(path);
    if (!s) return -1;
    v[c->nsources++] = s;
    v[c->nsources] = NULL;
    return 0;
}

int replay_conf_add_file(replay_conf *c, const char *name, uint32_t size)
{
    replay_conf_file *v = realloc(c->files, (c->nfiles + 1) * sizeof *v);
    if (!v) return -1;
    c->files = v;
    char *s = strdup(name);
    if (!s) return -1;
    v[c->nfiles].name = s;
    v[c->nfiles++].size = size;
    return 0;
}

/* ---- writer ---- */

/* A value with a line break would end its line early: such a configuration cannot be
 * written. Returns the key of the first bad value, or NULL. */
static const char *bad_value(const replay_conf *c)
{
    struct {
        const char *key, *val;
    } one[] = {
        {"cflags", c->cflags},     {"include", c->include_dir}, {"replaylib", c->replaylib},
        {"nondet", c->nondet},     {"posixconf", c->posixconf}, {"db_schema", c->db_schema},
        {"replaydb", c->replaydb}, {"replaypq", c->replaypq},
    };
    for (size_t i = 0; i < sizeof one / sizeof one[0]; i++)
        if (one[i].val && strpbrk(one[i].val, "\r\n")) return one[i].key;
    for (size_t i = 0; i < c->nsources; i++)
        if (strpbrk(c->sources[i], "\r\n")) return "source";
    for (size_t i = 0; i < c->nfiles; i++)
        if (strpbrk(c->files[i].name, "\r\n") || !*c->files[i].name) return "sym-file";
    return NULL;
}

char *replay_conf_format(const replay_conf *c, char **err)
{
    *err = NULL;
    const char *bad = bad_value(c);
    if (bad) {
        *err = util_strf("replay.conf: the %s value contains a line break (or is empty): it cannot be written", bad);
        return NULL;
    }
    strbuf b = STRBUF_INIT;
    sb_puts(&b, "sympath-replay 1\n");
    for (size_t i = 0; i < c->nsources; i++) sb_printf(&b, "source %s\n", c->sources[i]);
    sb_printf(&b, "cflags %s\n", c->cflags ? c->cflags : "");
    if (c->include_dir) sb_printf(&b, "include %s\n", c->include_dir);
    if (c->replaylib) sb_printf(&b, "replaylib %s\n", c->replaylib);
    if (c->branches_total >= 0)
        sb_printf(&b, "branches %" PRId64 " %" PRId64 "\n", c->branches_covered, c->branches_total);
    if (c->nondet) sb_printf(&b, "nondet %s\n", c->nondet);
    if (c->args_on) sb_printf(&b, "sym-args %u %u %u\n", c->args_min, c->args_max, c->arg_len);
    if (c->stdin_on) sb_printf(&b, "sym-stdin %u\n", c->stdin_max);
    for (size_t k = 0; k < c->nfiles; k++) sb_printf(&b, "sym-file %u %s\n", c->files[k].size, c->files[k].name);
    if (c->posixconf) sb_printf(&b, "posixconf %s\n", c->posixconf);
    if (c->replaypq) sb_printf(&b, "replaypq %s\n", c->replaypq);
    if (c->db_schema) sb_printf(&b, "db_schema %s\n", c->db_schema);
    if (c->db_inputs) sb_printf(&b, "db_inputs %" PRIu64 "\n", c->db_inputs);
    if (c->db_no_faults) sb_puts(&b, "db_faults 0\n");
    if (c->db_schema && c->replaydb) sb_printf(&b, "replaydb %s\n", c->replaydb);
    if (b.failed) {
        sb_free(&b);
        *err = util_strf("out of memory");
        return NULL;
    }
    return b.s;
}

int replay_conf_write(const char *path, const replay_conf *c, char **err)
{
    char *text = replay_conf_format(c, err);
    if (!text) return -1;
    int rc = util_write_atomic(path, text, strlen(text));
    if (rc) *err = util_strf("cannot write %s: %s", path, strerror(errno));
    free(text);
    return rc ? -1 : 0;
}

/* ---- reader ---- */

/* Unsigned decimal numbers, exactly `n` of them separated by single spaces, then either
 * the end of val or (rest != NULL) a space and a non-empty rest. 0 or -1. */
static int numbers(const char *val, uint64_t *out, int n, uint64_t max, const char **rest)
{
    const char *p = val;
    for (int i = 0; i < n; i++) {
        if (*p < '0' || *p > '9') return -1;
        char *end;
        errno = 0;
        unsigned long long v = strtoull(p, &end, 10);
        if (errno || v > max) return -1;
        out[i] = v;
        p = end;
        if (i + 1 < n || rest) {
            if (*p != ' ') return -1;
            p++;
        }
    }
    if (rest) {
        if (!*p) return -1;
        *rest = p;
        return 0;
    }
    return *p ? -1 : 0;
}

/* Replace *slot by a copy of val. 0 or -1 (out of memory). */
static int set_str(char **slot, const char *val)
{
    char *s = strdup(val);
    if (!s) return -1;
    free(*slot);
    *slot = s;
    return 0;
}

/* One line (NUL-terminated, no line break): 0, or -1 with *why (malloc'ed, without the line number). */
static int parse_line(replay_conf *c, char *line, char **why)
{
    char *sp = strchr(line, ' ');
    const char *key = line, *val = sp ? sp + 1 : "";
    if (sp) *sp = '\0';
    static const char *const paths[] = {"source",    "include",   "replaylib", "nondet",
                                        "posixconf", "db_schema", "replaydb",  "replaypq"};
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        if (strcmp(key, paths[i])) continue;
        if (!*val) {
            *why = util_strf("%s needs a path", key);
            return -1;
        }
        char **slot = i == 1   ? &c->include_dir
                      : i == 2 ? &c->replaylib
                      : i == 3 ? &c->nondet
                      : i == 4 ? &c->posixconf
                      : i == 5 ? &c->db_schema
                      : i == 6 ? &c->replaydb
                      : i == 7 ? &c->replaypq
                               : NULL;
        int rc = slot ? set_str(slot, val) : replay_conf_add_source(c, val);
        if (rc) *why = util_strf("out of memory");
        return rc;
    }
    uint64_t n[3];
    const char *rest = NULL;
    if (!strcmp(key, "cflags")) {
        char **words = NULL, *e = NULL;
        size_t nw = 0;
        int rc = util_split_words(val, &words, &nw, &e);
        util_free_strv(words);
        if (rc) {
            *why = util_strf("cflags: %s", e ? e : "out of memory");
            free(e);
            return -1;
        }
        if (set_str(&c->cflags, val)) {
            *why = util_strf("out of memory");
            return -1;
        }
    } else if (!strcmp(key, "branches")) {
        if (numbers(val, n, 2, INT64_MAX, NULL) || n[0] > n[1]) {
            *why = util_strf("branches needs two counts COVERED TOTAL (COVERED <= TOTAL), got '%s'", val);
            return -1;
        }
        c->branches_covered = (int64_t)n[0];
        c->branches_total = (int64_t)n[1];
    } else if (!strcmp(key, "db_faults")) {
        if (numbers(val, n, 1, 1, NULL)) {
            *why = util_strf("db_faults needs 0 or 1, got '%s'", val);
            return -1;
        }
        c->db_no_faults = n[0] == 0;
    } else if (!strcmp(key, "db_inputs")) {
        if (numbers(val, n, 1, UINT64_MAX, NULL)) {
            *why = util_strf("db_inputs needs a count, got '%s'", val);
            return -1;
        }
        c->db_inputs = n[0];
    } else if (!strcmp(key, "sym-args")) {
        if (numbers(val, n, 3, UINT32_MAX, NULL)) {
            *why = util_strf("sym-args needs three counts MIN MAX N, got '%s'", val);
            return -1;
        }
        c->args_on = 1;
        c->args_min = (uint32_t)n[0], c->args_max = (uint32_t)n[1], c->arg_len = (uint32_t)n[2];
    } else if (!strcmp(key, "sym-stdin")) {
        if (numbers(val, n, 1, UINT32_MAX, NULL)) {
            *why = util_strf("sym-stdin needs a count, got '%s'", val);
            return -1;
        }
        c->stdin_on = 1;
        c->stdin_max = (uint32_t)n[0];
    } else if (!strcmp(key, "sym-file")) {
        if (numbers(val, n, 1, UINT32_MAX, &rest)) {
            *why = util_strf("sym-file needs a size and a name, got '%s'", val);
            return -1;
        }
        if (replay_conf_add_file(c, rest, (uint32_t)n[0])) {
            *why = util_strf("out of memory");
            return -1;
        }
    } /* other keys: written by a newer sympath; ignored */
    return 0;
}

/* One line for proto_parse_lines: the version line, then keys. */
static int conf_line(void *ctx, char *line, int lineno, char **why)
{
    if (lineno > 1) return parse_line(ctx, line, why);
    if (strcmp(line, "sympath-replay 1") != 0) {
        *why = util_strf("not a version 1 replay configuration (it starts with \"sympath-replay 1\")");
        return -1;
    }
    return 0;
}

int replay_conf_parse(const char *text, size_t len, replay_conf *c, char **err)
{
    replay_conf_init(c);
    int lines = 0;
    if (proto_parse_lines(text, len, conf_line, c, &lines, err)) {
    } else if (lines == 0) {
        *err = util_strf("empty: not a replay configuration");
    } else if (c->nsources == 0 || !c->replaylib) {
        *err = util_strf("needs at least one `source` and a `replaylib` line");
    }
    if (*err) {
        replay_conf_free(c);
        return -1;
    }
    return 0;
}

static int parse_any(const char *text, size_t len, void *c, char **err) { return replay_conf_parse(text, len, c, err); }
static void init_any(void *c) { replay_conf_init(c); }

int replay_conf_read(const char *path, replay_conf *c, char **err)
{
    return proto_read_file(path, parse_any, init_any, c, err);
}
