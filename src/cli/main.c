/* main.c: the sympath command: dispatches to `run`, `replay`, `unit`, `data` and `report`. */
#include <stdio.h>
#include <string.h>

#include "data_cmd.h"
#include "replay_cmd.h"
#include "report_cmd.h"
#include "run_cmd.h"
#include "unit_cmd.h"

static void usage(FILE *f)
{
    fputs("usage: sympath run PROG.c [MORE.c ...] [-o OUT] [options]   explore a program, write a test suite\n"
          "       sympath replay OUT [--coverage] [--timeout S]        run a suite natively (gcov coverage)\n"
          "       sympath unit FILE.c (--function F | --all) [-o OUT]  CMocka unit tests for C functions\n"
          "       sympath data PROG.c --db DATABASE [-o OUT] [options] test on an existing database, read-only\n"
          "       sympath report OUT [-o DIR]                          static HTML report of an output directory\n"
          "       sympath --help | --version\n"
          "Run `sympath run --help` for the options of run.\n",
          f);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "run") == 0) return cmd_run(argc - 1, argv + 1);
    if (strcmp(argv[1], "replay") == 0) return cmd_replay(argc - 1, argv + 1);
    if (strcmp(argv[1], "unit") == 0) return cmd_unit(argc - 1, argv + 1);
    if (strcmp(argv[1], "data") == 0) return cmd_data(argc - 1, argv + 1);
    if (strcmp(argv[1], "report") == 0) return cmd_report(argc - 1, argv + 1);
    if (strcmp(argv[1], "--version") == 0) {
        puts("sympath 0.1");
        return 0;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return 0;
    }
    fprintf(stderr, "sympath: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}
