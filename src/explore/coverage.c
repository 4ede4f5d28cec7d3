/* coverage.c: branch coverage over all runs: which slots are the program's own, and merging one run's coverage bytes. */
#include "explorer.h"

uint32_t explore_user_slots(const site_table *t, uint8_t *slot_user, uint32_t nslots)
{
    uint32_t user_slots = 0;
    for (uint32_t i = 0; i < t->nsites; i++) {
        const site_info *si = &t->sites[i];
        if (!si->user) continue;
        for (uint32_t d = 0; d < si->ndirs && si->slot_base + d < nslots; d++) slot_user[si->slot_base + d] = 1;
        user_slots += si->ndirs;
    }
    return user_slots;
}

uint32_t explore_merge_coverage(uint8_t *covered, const uint8_t *slot_user, uint32_t nslots, const uint8_t *run_cov,
                                uint32_t *user_covered)
{
    uint32_t fresh = 0;
    for (uint32_t i = 0; i < nslots; i++) {
        if (run_cov[i] && !covered[i]) {
            covered[i] = 1;
            if (slot_user[i]) {
                fresh++;
                (*user_covered)++;
            }
        }
    }
    return fresh;
}

void explore_cov_list(strbuf *b, const uint8_t *slot_user, const uint8_t *slot_target, uint32_t nslots,
                      const uint8_t *run_cov, bool marked)
{
    size_t start = b->len;
    for (uint32_t i = 0; i < nslots; i++)
        if (slot_user[i] && (marked && !(slot_target && slot_target[i]) ? run_cov[i] & COV_BIT_TARGET : run_cov[i]))
            sb_printf(b, "%s%u", b->len > start ? " " : "", i);
    sb_puts(b, "\n");
}
