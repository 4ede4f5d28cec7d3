/* emit_stream.c: FILE * inputs in an emitted test: the recorded bytes as an fmemopen stream, or an open_memstream the unit writes to and whose text is asserted; closed after the call. */
#include <stdio.h>
#include <string.h>

#include "emit_int.h"

int emit_stream_decl(strbuf *b, const names *n, size_t k)
{
    const ur_object *o = &n->r->objs[k];
    const char *nm = n->local[k];
    if (o->ostream) { /* a stream the unit writes to: its text is asserted after the call */
        sb_printf(b, "    char *%s_text = NULL;\n    size_t %s_len = 0;\n", nm, nm);
        sb_printf(b, "    FILE *%s = open_memstream(&%s_text, &%s_len);\n", nm, nm, nm);
    } else if (o->ndata == 0) {
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
    for (size_t k = 0; k < n->r->nobjs; k++) {
        const ur_object *o = &n->r->objs[k];
        if (o->stream) sb_printf(b, "    fclose(%s);\n", n->local[k]);
        if (o->ostream) sb_printf(b, "    fclose(%s);\n    free(%s_text);\n", n->local[k], n->local[k]);
    }
}

void emit_ostream_asserts(strbuf *b, const names *n)
{
    for (size_t k = 0; k < n->r->nobjs; k++) {
        const ur_object *o = &n->r->objs[k];
        if (!o->ostream) continue;
        const char *nm = n->local[k];
        sb_printf(b, "    fflush(%s);\n", nm);
        if (o->ndata == 0) {
            sb_printf(b, "    assert_int_equal(%s_len, 0);\n", nm);
        } else if (!memchr(o->data, 0, o->ndata) && o->ndata < 1000) {
            sb_printf(b, "    assert_string_equal(%s_text, ", nm);
            emit_c_string(b, o->data, o->ndata);
            sb_puts(b, ");\n");
        } else {
            sb_printf(b, "    assert_true(%s_len >= %zu);\n    assert_memory_equal(%s_text, ", nm, o->ndata, nm);
            emit_c_string(b, o->data, o->ndata);
            sb_printf(b, ", %zu);\n", o->ndata);
        }
    }
}
