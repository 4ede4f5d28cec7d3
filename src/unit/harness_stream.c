/* harness_stream.c: FILE * parameters of the function under test: read streams over symbolic bytes, or output streams the unit writes to. */
#include <string.h>

#include "harness_int.h"

int unit_is_stream(const ut_type *ptr)
{
    if (!ptr || ptr->kind != UT_PTR || !ptr->pointee) return 0;
    const ut_type *e = ptr->pointee;
    const char *s = e->spelling, *c = e->canonical ? e->canonical : "";
    if (!strncmp(s, "const ", 6)) s += 6;
    if (!strncmp(c, "const ", 6)) c += 6;
    return !strcmp(s, "FILE") || !strcmp(c, "struct _IO_FILE") || !strcmp(c, "FILE");
}

void unit_stream_fill(strbuf *b, unsigned max)
{
    /* like --sym-file: a length input (at most max) and max byte inputs, read through the
     * libc models */
    sb_printf(b, "    *o = sympu_writes_stream(name) ? sympu_ostream(name) : sympu_stream(name, %u);\n", max);
    /* never NULL, not even lazily: the libc models compare the stream with NULL before they
     * use it, which is no check of the unit's */
    sb_puts(b, "    null_ok = 1;\n");
}
