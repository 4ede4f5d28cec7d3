/* junit.c: the command line that runs an emitted CMocka suite with JUnit XML output (CI shows each test). */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "report_int.h"

/* Append a path as one shell word: as is when it holds only safe characters, else in
 * single quotes (a quote inside becomes '\''). */
static void shell_word(strbuf *b, const char *s)
{
    if (*s && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-./+=:,@%") == strlen(s)) {
        sb_puts(b, s);
        return;
    }
    sb_puts(b, "'");
    for (const char *p = s; *p; p++) {
        if (*p == '\'')
            sb_puts(b, "'\\''");
        else
            sb_append(b, p, 1);
    }
    sb_puts(b, "'");
}

char *report_junit_run(const char *exe, const char *xml_path)
{
    strbuf b = STRBUF_INIT;
    sb_puts(&b, "rm -f ");
    shell_word(&b, xml_path);
    sb_puts(&b, " && CMOCKA_MESSAGE_OUTPUT=xml CMOCKA_XML_FILE=");
    shell_word(&b, xml_path);
    sb_puts(&b, " ");
    shell_word(&b, exe);
    if (b.failed) {
        sb_free(&b);
        return NULL;
    }
    return b.s;
}
