/* emit_stream.c: FILE * inputs in an emitted test: the recorded bytes as an fmemopen stream, closed after the call. */
#include <stdio.h>

#include "emit_int.h"

int emit_stream_decl(strbuf *b, const names *n, size_t k)
{
    const ur_object *o = &n->r->objs[k];
    const char *nm = n->local[k];
    if (o->ndata == 0) {
        /* fmemopen refuses a buffer of size 0 on glibc: an empty temporary file instead */
        sb_printf(b, "    FILE *%s = tmpfile(); /* an empty stream */\n", nm);
    } else {
        sb_printf(b, "    char %s_text[] = ", nm);
        emit_c_string(b, o->data, o->ndata);
        sb_printf(b, ";\n    FILE *%s = fmemopen(%s_text, %zu, \"r\");\n", nm, nm, o->ndata);
    }
    sb_printf(b, "    assert_non_null(%s);\n", nm);
    return 0;
}

void emit_stream_closes(strbuf *b, const names *n)
{
    for (size_t k = 0; k < n->r->nobjs; k++)
        if (n->r->objs[k].stream) sb_printf(b, "    fclose(%s);\n", n->local[k]);
}
