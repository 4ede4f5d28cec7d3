/* libc_cmdline.c: a libc-heavy symbolic program: a one-line command interpreter (strspn/strcspn tokens, strcmp/strncasecmp commands, strtol/sscanf numbers, isdigit/isalpha checks, snprintf output) over a symbolic line, for coverage figures of the libc models. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
extern char __VERIFIER_nondet_char(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "libc_cmdline.c", 9, "reach_error"); }

static int regs[4];

static int reg_index(const char *tok, size_t len) {
    if (len != 2 || tolower((unsigned char)tok[0]) != 'r' || !isdigit((unsigned char)tok[1]))
        return -1;
    int r = tok[1] - '0';
    return r < 4 ? r : -1;
}

int main(void) {
    char line[13];
    for (int i = 0; i < 12; i++)
        line[i] = __VERIFIER_nondet_char();
    line[12] = '\0';
    const char *p = line + strspn(line, " \t");
    size_t cmd_len = strcspn(p, " \t");
    const char *arg = p + cmd_len + strspn(p + cmd_len, " \t");
    char out[32];
    if (cmd_len == 3 && strncasecmp(p, "set", 3) == 0) {
        int r = reg_index(arg, strcspn(arg, " ="));
        const char *eq = strchr(arg, '=');
        if (r < 0 || eq == NULL)
            return 1;
        char *end;
        long v = strtol(eq + 1, &end, 0);
        if (end == eq + 1)
            return 2;
        regs[r] = (int)v;
        snprintf(out, sizeof out, "r%d=%ld", r, v);
        if (out[3] == '-' && out[4] == '9')
            return 3;
    } else if (cmd_len == 3 && strncmp(p, "add", 3) == 0) {
        int a, b;
        if (sscanf(arg, "%d %d", &a, &b) != 2)
            return 4;
        if (a + b == 100 && a > b && b > 0)
            reach_error();
    } else if (cmd_len == 4 && strcmp(p, "help") == 0) {
        return 5;
    } else if (cmd_len > 0 && isalpha((unsigned char)p[0])) {
        return 6;
    }
    return 0;
}
