/* replay_cmd.c: `sympath replay`: options, then the replay component (src/replay). */
#define _GNU_SOURCE
#include "replay_cmd.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay/replay.h"

static int usage(void)
{
    fputs("usage: sympath replay OUT [--coverage] [--timeout SECONDS]\n"
          "  rebuilds the program of OUT natively, runs OUT/tests/test-*.xml and\n"
          "  OUT/errors/error-*.xml, and with --coverage reports gcov coverage.\n",
          stderr);
    return 2;
}

int cmd_replay(int argc, char **argv)
{
    const char *out = NULL;
    replay_opts o = {NULL, 0, 10.0, stdout};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--coverage") == 0) {
            o.coverage = 1;
        } else if (strcmp(a, "--timeout") == 0 || strncmp(a, "--timeout=", 10) == 0) {
            const char *v = a[9] == '=' ? a + 10 : (i + 1 < argc ? argv[++i] : NULL);
            char *end;
            o.timeout_s = v ? strtod(v, &end) : 0;
            if (!v || end == v || *end || !(o.timeout_s > 0)) {
                fprintf(stderr, "sympath replay: --timeout needs a positive number of seconds\n");
                return usage();
            }
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage();
            return 0;
        } else if (a[0] == '-' || out) {
            fprintf(stderr, "sympath replay: unexpected argument '%s'\n", a);
            return usage();
        } else {
            out = a;
        }
    }
    if (!out) return usage();
    char outabs[PATH_MAX];
    if (!realpath(out, outabs)) {
        fprintf(stderr, "sympath replay: %s: %s\n", out, strerror(errno));
        return 2;
    }
    o.out_dir = outabs;
    replay_summary s;
    char *err = NULL;
    if (replay_suite(&o, &s, &err)) {
        fflush(stdout);
        fprintf(stderr, "sympath replay: %s\n", err ? err : "out of memory");
        free(err);
        return 2;
    }
    return s.unexpected ? 1 : 0;
}
