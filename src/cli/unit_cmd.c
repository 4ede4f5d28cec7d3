/* unit_cmd.c: `sympath unit`: options, then the unit pipeline (src/unit, unit_run). */
#define _GNU_SOURCE
#include "unit_cmd.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run_cmd.h"
#include "unit/unit.h"
#include "util/util.h"
#include "interrupt.h"

static void unit_usage(FILE *f)
{
    fputs(
        "usage: sympath unit FILE.c|FILE.h [MORE.c ...] (--function F ... | --all) [options]\n"
        "  --function NAME         a function to test (repeatable; a static one too: the test #includes its file)\n"
        "  --all                   every function with external linkage defined in the files (of a header: all)\n"
        "  -o, --output DIR        output directory (default: sympath-unit-out)\n"
        "  -I DIR                  include directory for the unit (repeatable)\n"
        "  --cflags \"FLAGS\"        extra compiler flags for the unit\n"
        "  --define NAME[=VALUE]   -DNAME[=VALUE] for the unit (repeatable)\n" /* unitlib */
        "  --compile-commands P    take -I/-D/-std/-include from compile_commands.json (P: file or directory)\n"
        "  --budget DURATION       exploration budget, shared by the functions (default 60s)\n"
        "  --mock NAME             also replace NAME (a libc/libm or other system function) by a stand-in\n"
        "  --mock-outputs          mocks also write a fresh value through each output parameter (non-const T *)\n"
        "  --depth N               fresh input objects at most N pointers deep (default 3)\n"
        "  --str-len N             strings: at most N characters (default 16)\n"
        "  --buf-len N             buffer/length pairs: at most N elements (default 32)\n"
        "  --enum-any              enum inputs take any value, not only the declared ones\n"
        "  --global-inputs         the unit's global variables are inputs too (default: their initial values)\n"
        "  --cycles                input objects may point back to objects that contain them (cyclic lists)\n"
        "  --null-always           any pointer input may be NULL (default: only where the unit checks it before use)\n"
        "  --init TYPE=FUNCTION    build TYPE (a parameter type or its pointee) with the unit's FUNCTION (repeatable;\n"
        "                          no other producer of TYPE is looked for)\n"
        "  --raw-inputs            build every parameter field by field, not through the unit's producers\n"
        "  --no-diversify          keep each test's inputs as the solver first wrote them (default: the inputs its\n"
        "                          path leaves free get varied values, checked by running it)\n"
        "  --no-minimize           keep every test (default: the fewest tests with the same branch coverage and\n"
        "                          the same variety of outcomes and returned values)\n"
        "  --no-mutants            no mutation analysis (default: mutants of each function are run on its tests,\n"
        "                          and exploration runs that kill mutants the tests miss join the suite)\n"
        "  --full-budget           explore each function for its whole share of the budget (default: stop once its\n"
        "                          branches are covered and the search has nothing promising left)\n"
        "  --max-execs N           stop each function's exploration after N runs (default: no limit; with it the\n"
        "                          suite depends on the run count, not on the machine's speed, within the budget)\n"
        "  --max-memory MIB        sympath's own memory (execution tree, solver) at which a function's\n"
        "                          exploration stops, its tests kept (default: half the RAM, at most 4096; 0 = none)\n"
        "  --timeout DURATION      time limit of one run (default 1s)\n"
        "  -j, --jobs N            parallel workers per function (default 1; docs/parallel.md)\n"
        "  --no-progress           no live progress line\n",
        f);
}

int cmd_unit(int argc, char **argv)
{
    const char *out = "sympath-unit-out";
    char *cflags = strdup("");
    const char **sources = calloc((size_t)argc + 1, sizeof *sources);
    const char **fnames = calloc((size_t)argc + 1, sizeof *fnames);
    const char **mocks = calloc((size_t)argc + 1, sizeof *mocks);
    const char **inits = calloc((size_t)argc + 1, sizeof *inits); /* --init TYPE=FUNCTION */
    if (!cflags || !sources || !fnames || !mocks || !inits) {
        fprintf(stderr, "sympath unit: out of memory\n");
        return 1;
    }
    size_t nsources = 0, nfnames = 0, nmocks = 0;
    int all = 0, mock_outputs = 0, no_diversify = 0, no_minimize = 0, no_mutants = 0, full_budget = 0;
    const char *compdb = NULL; /* unitlib: --compile-commands */
    double budget = 60, timeout = 1;
    unsigned jobs = 1;
    uint64_t max_execs = 0, max_memory = util_default_max_memory_mb();
    unit_harness_opts ho = {3, 16, 32, 0, 0, 0, 0, NULL, NULL, 0, 0, inits, 0};
    int progress = isatty(2);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        double d;
#define NEED()                                                             \
    do {                                                                   \
        if (!v) {                                                          \
            fprintf(stderr, "sympath unit: option %s needs a value\n", a); \
            return 2;                                                      \
        }                                                                  \
        i++;                                                               \
    } while (0)
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            unit_usage(stdout);
            return 0;
        } else if (!strcmp(a, "--function")) {
            NEED();
            fnames[nfnames++] = v;
        } else if (!strcmp(a, "--all")) {
            all = 1;
        } else if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
            NEED();
            out = v;
        } else if (!strcmp(a, "-I") || !strncmp(a, "-I", 2)) {
            const char *dir = a[2] ? a + 2 : v;
            if (!a[2]) NEED();
            char *n = NULL;
            if (asprintf(&n, "%s -I%s", cflags, dir) < 0) return 1;
            free(cflags);
            cflags = n;
        } else if (!strcmp(a, "--cflags")) {
            NEED();
            char *n = NULL;
            if (asprintf(&n, "%s %s", cflags, v) < 0) return 1;
            free(cflags);
            cflags = n;
        } else if (!strcmp(a, "--define") || !strcmp(a, "--compile-commands")) { /* unitlib: new options */
            NEED();
            if (a[2] == 'c') {
                compdb = v;
                continue;
            }
            char *d = util_strf("-D%s", v), *q = d ? unit_quote_word(d) : NULL, *n = NULL;
            if (!q || asprintf(&n, "%s %s", cflags, q) < 0) return 1;
            free(cflags), free(d), free(q), cflags = n;
        } else if (!strcmp(a, "--budget")) {
            NEED();
            if (parse_duration(v, &d)) goto bad;
            budget = d;
        } else if (!strcmp(a, "--timeout")) {
            NEED();
            if (parse_duration(v, &d) || d <= 0) goto bad;
            timeout = d;
        } else if (!strcmp(a, "-j") || !strcmp(a, "--jobs")) {
            NEED();
            uint64_t u;
            if (util_parse_uint(v, 64, &u) != 0 || u < 1) goto bad;
            jobs = (unsigned)u;
        } else if (!strcmp(a, "--mock")) {
            NEED();
            mocks[nmocks++] = v;
        } else if (!strcmp(a, "--mock-outputs")) {
            mock_outputs = 1;
        } else if (!strcmp(a, "--depth") || !strcmp(a, "--str-len") || !strcmp(a, "--buf-len")) {
            NEED();
            char *end;
            long x = strtol(v, &end, 10);
            if (*end || x < 1 || x > 4096) goto bad;
            if (a[2] == 'd')
                ho.depth = (unsigned)x;
            else if (a[2] == 's')
                ho.str_len = (unsigned)x;
            else
                ho.buf_len = (unsigned)x;
        } else if (!strcmp(a, "--enum-any")) {
            ho.enum_any = 1;
        } else if (!strcmp(a, "--null-always")) {
            ho.null_all = 1;
        } else if (!strcmp(a, "--cycles")) {
            ho.cycles = 1;
        } else if (!strcmp(a, "--raw-inputs")) {
            ho.raw_inputs = 1;
        } else if (!strcmp(a, "--no-diversify")) {
            no_diversify = 1;
        } else if (!strcmp(a, "--no-minimize")) {
            no_minimize = 1;
        } else if (!strcmp(a, "--no-mutants")) {
            no_mutants = 1;
        } else if (!strcmp(a, "--full-budget")) {
            full_budget = 1;
        } else if (!strcmp(a, "--max-execs")) {
            NEED();
            if (util_parse_uint(v, UINT32_MAX, &max_execs) != 0 || max_execs < 1) goto bad;
        } else if (!strcmp(a, "--max-memory")) {
            NEED();
            if (util_parse_uint(v, 1u << 24, &max_memory) != 0) goto bad;
        } else if (!strcmp(a, "--init")) {
            NEED();
            const char *eq = strrchr(v, '=');
            if (!eq || eq == v || !eq[1]) goto bad;
            inits[ho.ninits++] = v;
        } else if (!strcmp(a, "--global-inputs")) {
            ho.global_inputs = 1;
        } else if (!strcmp(a, "--no-progress")) {
            progress = 0;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "sympath unit: unknown option '%s' (see --help)\n", a);
            return 2;
        } else {
            sources[nsources++] = a;
        }
        continue;
    bad:
        fprintf(stderr, "sympath unit: bad value '%s' for %s (see --help)\n", v, a);
        return 2;
#undef NEED
    }
    if (nsources == 0 || (!all && nfnames == 0)) {
        fprintf(stderr, "sympath unit: %s\n", nsources == 0 ? "no C source given" : "give --function NAME or --all");
        unit_usage(stderr);
        return 2;
    }

    char **words = NULL, *err = NULL;
    size_t nwords = 0;
    if (util_split_words(cflags, &words, &nwords, &err)) {
        fprintf(stderr, "sympath unit: --cflags: %s\n", err);
        return 2;
    }
    util_free_strv(words);
    unit_run_opts o = {out,
                       sources,
                       nsources,
                       fnames,
                       nfnames,
                       all,
                       cflags,
                       mocks,
                       nmocks,
                       mock_outputs,
                       budget,
                       timeout,
                       ho,
                       progress,
                       &cli_interrupted,
                       cli_arm_interrupt,
                       stderr,
                       compdb /* unitlib: --compile-commands, read by unit_run: its flags go before cflags */,
                       jobs,
                       no_diversify,
                       no_minimize,
                       no_mutants,
                       full_budget,
                       max_execs,
                       (unsigned)max_memory};
    int rc = unit_run(&o);
    free(cflags);
    free(sources);
    free(fnames);
    free(mocks);
    free(inits);
    return rc;
}
