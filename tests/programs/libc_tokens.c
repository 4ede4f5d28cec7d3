// A CSV-like line split with strtok and strsep (libc models over strspn/strcspn), fields converted with atoi and compared with strcmp: every field boundary and value is symbolic.
// EXPECT-COVERAGE: 100
// EXPECT-ERROR: reach_error 27
// EXPECT-NO-CONCRETIZATION: external_call
// EXPECT-REPLAY
// SYMPATH-ARGS: --budget 90s
#include <stdlib.h>
#include <string.h>
extern char __VERIFIER_nondet_char(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "libc_tokens.c", 10, "reach_error"); }

int main(void) {
    char line[7], copy[7];
    for (int i = 0; i < 6; i++)
        line[i] = __VERIFIER_nondet_char();
    line[6] = '\0';
    strcpy(copy, line);
    int fields = 0, sum = 0;
    for (char *t = strtok(line, ","); t != NULL; t = strtok(NULL, ",")) {
        fields++;
        sum += atoi(t);
    }
    char *rest = copy, *first = strsep(&rest, ",");
    if (fields == 3 && sum == 7) {
        if (strcmp(first, "x") == 0)
            reach_error();
        return 1;
    }
    if (rest == NULL && first[0] == '9')
        return 2;   /* no comma at all */
    return 0;
}
