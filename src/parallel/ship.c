/* ship.c: rank 0 sends the built executor and site table to the workers, which write them to their own directory. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "parallel.h"
#include "util/util.h"

int parallel_ship_build(par_link *l, const char *exe, const char *sites, unsigned char *shipped, char **err)
{
    size_t nexe = 0, nsites = 0;
    char *bexe = util_read_file(exe, &nexe);
    if (!bexe) {
        *err = util_strf("cannot read %s: %s", exe, strerror(errno));
        return -1;
    }
    char *bsites = util_read_file(sites, &nsites);
    if (!bsites) {
        *err = util_strf("cannot read %s: %s", sites, strerror(errno));
        free(bexe);
        return -1;
    }
    par_msg m;
    par_msg_init(&m, PAR_MSG_BUILD);
    par_put_bytes(&m, bexe, nexe);
    par_put_bytes(&m, bsites, nsites);
    free(bexe);
    free(bsites);
    int rc = 0;
    for (int w = 1; w <= l->nworkers && rc == 0; w++) {
        if (par_send(l, w, &m) != 0) {
            *err = util_strf("cannot send the executor to worker %d%s", w, m.bad ? " (out of memory)" : "");
            rc = -1;
        } else if (shipped) {
            shipped[w - 1] = 1;
        }
    }
    par_msg_free(&m);
    return rc;
}

int parallel_ship_none(par_link *l, int w, int code)
{
    par_msg m;
    par_msg_init(&m, PAR_MSG_NO_BUILD);
    par_put_u32(&m, (uint32_t)code);
    int rc = par_send(l, w, &m);
    par_msg_free(&m);
    return rc;
}

/* Write n bytes to dir/name (atomically) with the given mode; the path goes to out. */
static int write_file(const char *dir, const char *name, const void *p, size_t n, mode_t mode, char *out, char **err)
{
    int k = snprintf(out, PATH_MAX + 16, "%s/%s", dir, name);
    if (k < 0 || k >= PATH_MAX + 16) {
        *err = util_strf("output path too long: %s/%s", dir, name);
        return -1;
    }
    if (util_write_atomic(out, p, n) != 0 || chmod(out, mode) != 0) {
        *err = util_strf("cannot write %s: %s", out, strerror(errno));
        return -1;
    }
    return 0;
}

int parallel_receive_build(par_link *l, const char *dir, char *exe, char *sites, int *code, char **err)
{
    par_msg m;
    par_msg_init(&m, 0);
    int src = -1, rc;
    /* no time limit, but a signal ends a wait of recv with 0: wait again (rank 0 always
     * answers, with the build or PAR_MSG_NO_BUILD, unless it closed: then -1) */
    while ((rc = par_recv(l, &src, &m, 1000)) == 0) {}
    if (rc < 0) {
        *err = util_strf("the coordinator (rank 0) is gone before sending the executor");
        return -1;
    }
    int out = -1;
    if (m.type == PAR_MSG_NO_BUILD) {
        uint32_t c = par_get_u32(&m);
        *code = (int)c;
        out = m.bad ? -1 : 0;
        if (m.bad) *err = util_strf("bad message from the coordinator (type %d, too short)", PAR_MSG_NO_BUILD);
    } else if (m.type == PAR_MSG_BUILD && !m.bad) {
        size_t nexe = 0, nsites = 0;
        const uint8_t *pexe = par_get_bytes(&m, &nexe);
        const uint8_t *psites = par_get_bytes(&m, &nsites);
        if (m.bad || !pexe || !psites) {
            *err = util_strf("bad message from the coordinator (type %d, too short)", PAR_MSG_BUILD);
        } else if (util_mkdir_p(dir) != 0) {
            *err = util_strf("cannot create %s: %s", dir, strerror(errno));
        } else if (write_file(dir, "executor", pexe, nexe, 0755, exe, err) == 0 &&
                   write_file(dir, "sites.tsv", psites, nsites, 0644, sites, err) == 0) {
            out = 1;
        }
    } else {
        *err = util_strf("unexpected first message from the coordinator (type %d)", m.type);
    }
    par_msg_free(&m);
    return out;
}
