/* candidates.c: runs that covered nothing new but a new combination of user branch directions, saved as candidate tests for sympath unit's mutation analysis. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explore/explore_state.h"
#include "util/util.h"

/* FNV-1a over the indices of the user slots cov covers: the run's combination of branch directions. */
static uint64_t combination_hash(const explore_state *s, const uint8_t *cov)
{
    uint64_t h = 1469598103934665603ull;
    for (uint32_t i = 0; i < s->nslots; i++)
        if (cov[i] && s->slot_user[i]) {
            h ^= i;
            h *= 1099511628211ull;
        }
    return h ? h : 1;
}

/* 1 when h was new to the set (and is now in it); 0 when seen or the set is full. */
static int combination_add(explore_state *s, uint64_t h)
{
    enum { CAP = 8192 };
    if (!s->cand_seen && !(s->cand_seen = calloc(CAP, sizeof *s->cand_seen))) return 0;
    for (uint32_t k = 0, i = (uint32_t)(h % CAP); k < CAP; k++, i = (i + 1) % CAP) {
        if (s->cand_seen[i] == h) return 0;
        if (!s->cand_seen[i]) {
            s->cand_seen[i] = h;
            return 1;
        }
    }
    return 0;
}

void explore_candidate_consider(explore_state *s, const run_result *r, const uint8_t *cov, int diverged)
{
    if (!s->o->candidates || s->ncand >= s->o->candidates || diverged || r->error != ERR_NONE || !r->marked ||
        r->inputs_done || !r->ninputs || s->write_failed)
        return;
    if (!combination_add(s, combination_hash(s, cov))) return;
    test_case tc;
    explore_fill_test_case(r, &tc);
    strbuf b = STRBUF_INIT;
    char path[4200];
    unsigned num = s->ncand + 1;
    snprintf(path, sizeof path, "%s/tests/cand-%05u.xml", s->o->out_dir, num);
    char *err = NULL;
    if (suite_write_test_to(path, &tc, "a new combination of branch directions (a candidate test)", &err) != 0) {
        free(err);
        return; /* a candidate is an extra: its loss costs no test */
    }
    for (uint32_t i = 0; i < s->nslots; i++)
        if (cov[i] && s->slot_user[i]) sb_printf(&b, "%s%u", b.len ? " " : "", i);
    sb_puts(&b, "\n");
    snprintf(path, sizeof path, "%s/tests/cand-%05u.cov", s->o->out_dir, num);
    if (b.s) util_write_atomic(path, b.s, b.len);
    sb_free(&b);
    s->ncand = num;
}
