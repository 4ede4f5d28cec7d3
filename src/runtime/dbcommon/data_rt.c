/* data_rt.c: data mode in the executor: the explorer's plan, the log, run-wide tuple numbers and data inputs. */
#define _GNU_SOURCE
#include "data_rt.h"
#include "db_log.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../../proto/env.h"

/* Per run (the fork server's child): a child starts from the server's state, in which
 * nothing of a run has happened yet, so "once per process" is "once per run" here. */
static int active = -1; /* -1 unknown, 0 no, 1 yes */
static int run_pid;     /* process the state below belongs to */
static uint64_t default_limit;
static bool symbolic = true;
static data_plan_site *sites;
static size_t nsites;
static int log_fd = -1;
static uint64_t tuples;

/* Names already given a symbol in this run (a value read twice is the same input). */
typedef struct named {
    struct named *next;
    expr *e;
    char name[];
} named;
#define NAMED_BUCKETS 4096
static named **names;

static void free_plan(void)
{
    for (size_t i = 0; i < nsites; i++) free(sites[i].cond);
    free(sites);
    sites = NULL;
    nsites = 0;
}

static void read_plan(const char *path)
{
    free_plan();
    default_limit = 0;
    symbolic = true;
    FILE *f = fopen(path, "r");
    if (!f) return;
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, f)) > 0) {
        if (line[n - 1] == '\n') line[--n] = 0;
        if (!strncmp(line, "limit\t", 6)) {
            default_limit = strtoull(line + 6, NULL, 10);
        } else if (!strncmp(line, "symbolic\t", 9)) {
            symbolic = atoi(line + 9) != 0;
        } else if (!strncmp(line, "site\t", 5)) {
            char *id = line + 5, *t1 = strchr(id, '\t');
            if (!t1 || t1 - id != 16) continue;
            char *lim = t1 + 1, *t2 = strchr(lim, '\t');
            data_plan_site *ns = realloc(sites, (nsites + 1) * sizeof *ns);
            if (!ns) break;
            sites = ns;
            data_plan_site *s = &sites[nsites];
            memcpy(s->id, id, 16);
            s->id[16] = 0;
            s->limit = strtoull(lim, NULL, 10);
            char *off = t2 ? t2 + 1 : NULL, *t3 = off ? strchr(off, '\t') : NULL;
            s->offset = off ? strtoull(off, NULL, 10) : 0;
            s->cond = strdup(t3 ? t3 + 1 : "");
            if (!s->cond) break;
            nsites++;
        }
    }
    free(line);
    fclose(f);
}

void data_rt_run_start(void)
{
    if (active == 0 || (active == 1 && run_pid == (int)getpid())) return;
    const char *plan = getenv(SYMPATH_ENV_DATA_PLAN);
    active = plan && *plan ? 1 : 0;
    if (!active) return;
    run_pid = (int)getpid();
    read_plan(plan);
    if (log_fd >= 0) rt_sys_close(log_fd);
    const char *lp = getenv(SYMPATH_ENV_DATA_LOG);
    log_fd = lp && *lp ? open(lp, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644) : -1;
    tuples = 0;
    free(names); /* the server never fills it; a run's table dies with the run */
    names = calloc(NAMED_BUCKETS, sizeof *names);
}

bool data_rt_active(void)
{
    data_rt_run_start();
    return active == 1;
}

const char *data_rt_db(void)
{
    const char *d = getenv(SYMPATH_ENV_DATA_DB);
    return d && *d ? d : NULL;
}

uint64_t data_rt_default_limit(void) { return default_limit; }
bool data_rt_symbolic(void) { return symbolic; }

const data_plan_site *data_rt_plan_for(const char *site_id)
{
    for (size_t i = 0; i < nsites; i++)
        if (!strcmp(sites[i].id, site_id)) return &sites[i];
    return NULL;
}

void data_rt_log(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    db_log_vline(log_fd, 8192, fmt, ap);
    va_end(ap);
}

void data_rt_log_fields(const char *head, const char *const *fields, int n, size_t field_cap)
{
    db_log_fields(log_fd, 8192, head, fields, n, field_cap);
}

void data_rt_log_site(const char *site, int ncols, const char *dialect, const char *sql, int nparams,
                      char *const *literals)
{
    const char **f = calloc((size_t)nparams + 1, sizeof *f);
    char head[128];
    if (!f) return;
    snprintf(head, sizeof head, "s\t%s\t%d\t%s", site, ncols, dialect);
    f[0] = sql;
    for (int i = 0; i < nparams; i++) f[1 + i] = literals ? literals[i] : NULL; /* NULL: "NULL" */
    data_rt_log_fields(head, f, 1 + nparams, 4096);
    free(f);
}

uint64_t data_rt_next_tuple(void) { return tuples++; }

static unsigned hash_name(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++) h = (h ^ (uint8_t)*s) * 16777619u;
    return h % NAMED_BUCKETS;
}

expr *data_rt_input(unsigned width, input_type it, const char *site, uint64_t tuple, const char *term, uint64_t value)
{
    if (!symbolic || rt.trace_full) return NULL;
    char name[512];
    snprintf(name, sizeof name, "data:%s:%llu:%s", site, (unsigned long long)tuple, term);
    unsigned b = hash_name(name);
    if (names)
        for (named *n = names[b]; n; n = n->next)
            if (!strcmp(n->name, name)) return n->e && n->e->value == (value & expr_mask(width)) ? n->e : NULL;
    expr *e = rt_env_input(it, width, name, value);
    named *n = names ? malloc(sizeof *n + strlen(name) + 1) : NULL;
    if (n) {
        n->e = e;
        strcpy(n->name, name);
        n->next = names[b];
        names[b] = n;
    }
    return e;
}
