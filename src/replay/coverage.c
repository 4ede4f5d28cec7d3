/* coverage.c: gcovr over a replay's gcov data: branch and line totals beside sympath's own branch count, an HTML report. */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "replay/replay.h"
#include "util/util.h"

char *replay_common_dir(char *const *paths, size_t n)
{
    char *dir = strdup(n ? paths[0] : "/");
    if (!dir) return NULL;
    char *slash = strrchr(dir, '/');
    if (slash) *slash = '\0';
    for (size_t i = 1; i < n; i++) {
        size_t len = strlen(dir);
        while (len > 0 && !(strncmp(paths[i], dir, len) == 0 && paths[i][len] == '/')) {
            char *s = strrchr(dir, '/');
            if (!s) {
                len = 0;
                break;
            }
            *s = '\0';
            len = strlen(dir);
        }
        if (len == 0) {
            *dir = '\0';
            break;
        }
    }
    if (!*dir) {
        free(dir);
        return strdup("/");
    }
    return dir;
}

/* path as a gcovr filter: a regular expression matching exactly that file (malloc'ed). */
static char *regex_quote(const char *path)
{
    char *out = malloc(2 * strlen(path) + 2), *o = out;
    if (!out) return NULL;
    for (const char *p = path; *p; p++) {
        if (strchr("\\.^$|?*+()[]{}", *p)) *o++ = '\\';
        *o++ = *p;
    }
    *o++ = '$';
    *o = '\0';
    return out;
}

int replay_json_top_number(const char *text, const char *key, double *out)
{
    size_t klen = strlen(key);
    int depth = 0;
    for (const char *p = text; *p; p++) {
        if (*p == '{' || *p == '[') {
            depth++;
        } else if (*p == '}' || *p == ']') {
            depth--;
        } else if (*p == '"') {
            const char *s = p + 1, *e = s;
            while (*e && *e != '"') e += (*e == '\\' && e[1]) ? 2 : 1;
            if (!*e) return -1;
            p = e;
            if (depth == 1 && (size_t)(e - s) == klen && strncmp(s, key, klen) == 0) {
                const char *q = e + 1;
                while (isspace((unsigned char)*q)) q++;
                if (*q != ':') continue;
                char *end;
                *out = strtod(q + 1, &end);
                return end == q + 1 ? -1 : 0;
            }
        }
    }
    return -1;
}

static void print_ratio(FILE *f, const char *what, double cov, double total)
{
    const char *pad = strcmp(what, "line") ? "" : "  ";
    if (total > 0)
        fprintf(f, "gcov %s coverage:%s %.0f/%.0f (%.1f%%)", what, pad, cov, total, 100.0 * cov / total);
    else
        fprintf(f, "gcov %s coverage:%s %.0f/%.0f (n/a)", what, pad, cov, total);
}

int replay_coverage(const replay_conf *c, const char *rdir, FILE *report, char **err)
{
    *err = NULL;
    char *root = replay_common_dir(c->sources, c->nsources);
    char *summary = util_strf("%s/coverage-summary.json", rdir);
    char *html = util_strf("%s/coverage.html", rdir);
    char *log = util_strf("%s/gcovr.log", rdir);
    size_t n = 0, cap = 16 + 2 * c->nsources;
    char **a = calloc(cap, sizeof *a);
    int rc = -1;
    char *text = NULL;
    if (!root || !summary || !html || !log || !a) {
        *err = util_strf("out of memory");
        goto out;
    }
    a[n++] = strdup("gcovr");
    a[n++] = strdup("--root");
    a[n++] = strdup(root);
    a[n++] = strdup("--object-directory");
    a[n++] = strdup(rdir);
    for (size_t i = 0; i < c->nsources; i++) {
        a[n++] = strdup("--filter");
        a[n++] = regex_quote(c->sources[i]);
    }
    a[n++] = strdup("--gcov-ignore-parse-errors"); /* one odd line must not cost the whole report */
    a[n++] = strdup("--json-summary");
    a[n++] = strdup(summary);
    a[n++] = strdup("--html-details");
    a[n++] = strdup(html);
    a[n++] = strdup(rdir); /* search path for the .gcda/.gcno files */
    for (size_t i = 0; i < n; i++)
        if (!a[i]) {
            *err = util_strf("out of memory");
            goto out;
        }
    unlink(summary);
    util_proc p = {.argv = a, .out_path = log};
    int st = 0;
    double bc, bt, lc, lt;
    if (util_run(&p, &st) != 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        *err = util_strf("gcovr failed (is it installed?); see %s", log);
    } else if (!(text = util_read_file(summary, NULL)) || replay_json_top_number(text, "branch_covered", &bc) ||
               replay_json_top_number(text, "branch_total", &bt) || replay_json_top_number(text, "line_covered", &lc) ||
               replay_json_top_number(text, "line_total", &lt)) {
        *err = util_strf("cannot read the totals in %s", summary);
    } else {
        print_ratio(report, "branch", bc, bt);
        if (c->branches_total >= 0)
            fprintf(report, "   sympath reported: %lld/%lld\n", (long long)c->branches_covered,
                    (long long)c->branches_total);
        else
            fprintf(report, "   sympath reported: n/a\n");
        print_ratio(report, "line", lc, lt);
        fprintf(report, "\nHTML report: %s\n", html);
        rc = 0;
    }
out:
    for (size_t i = 0; a && i < n; i++) free(a[i]);
    free(a);
    free(text);
    free(root);
    free(summary);
    free(html);
    free(log);
    return rc;
}
