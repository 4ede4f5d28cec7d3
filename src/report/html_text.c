/* html_text.c: escaping text for HTML element content and attribute values. */
#include "report_int.h"

void html_escaped(strbuf *b, const char *s)
{
    if (!s) return;
    const char *run = s;
    for (const char *p = s;; p++) {
        const char *rep = NULL;
        unsigned char c = (unsigned char)*p;
        switch (c) {
        case '&': rep = "&amp;"; break;
        case '<': rep = "&lt;"; break;
        case '>': rep = "&gt;"; break;
        case '"': rep = "&quot;"; break;
        case '\'': rep = "&#39;"; break;
        default:
            if (c && c < 0x20 && c != '\t' && c != '\n') rep = "?";
        }
        if (!rep && c) continue;
        sb_append(b, run, (size_t)(p - run));
        if (!c) return;
        sb_puts(b, rep);
        run = p + 1;
    }
}
