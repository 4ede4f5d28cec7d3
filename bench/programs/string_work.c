/* string_work.c: a mostly concrete string workload (formatting, parsing, searching, comparing, ctype) with one symbolic input, to measure the libc models against native libc. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
extern int __VERIFIER_nondet_int(void);

#define LINES 100000

int main(void) {
    int seed = __VERIFIER_nondet_int();
    static char text[LINES][48];
    unsigned long sum = 0;
    for (int i = 0; i < LINES; i++)   /* formatting */
        snprintf(text[i], sizeof text[i], "key%05d = %d, 0x%x ; tag%d", i, i * 7 - 3, (unsigned)i * 13, i % 17);
    for (int i = 0; i < LINES; i++) { /* parsing */
        int k = 0, v = 0;
        unsigned h = 0;
        if (sscanf(text[i], "key%d = %d, %x", &k, &v, &h) == 3)
            sum += (unsigned long)(k + v) ^ h;
        const char *eq = strchr(text[i], '=');
        if (eq)
            sum += strtol(eq + 1, NULL, 10) + atoi(eq + 2);
    }
    for (int i = 0; i < LINES; i++) { /* searching, comparing, ctype */
        sum += strlen(text[i]) + strspn(text[i], "key0123456789") + strcspn(text[i], ";");
        if (strstr(text[i], "tag1") != NULL)
            sum++;
        if (i > 0 && strcmp(text[i - 1], text[i]) < 0 && strncmp(text[i], "key", 3) == 0)
            sum += 2;
        for (const char *p = text[i]; *p; p++)
            sum += isdigit((unsigned char)*p) ? 1 : isspace((unsigned char)*p) ? 2 : toupper((unsigned char)*p) & 1;
    }
    printf("%lu\n", sum + (unsigned)seed);
    return 0;
}
