/* emit_stream.c: FILE * inputs in an emitted test (the recorded bytes as an fmemopen stream, or an open_memstream the unit writes to and whose text is asserted; closed after the call), and the call's standard output captured and asserted. */
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

int emit_captures_stdout(const unit_test *t) { return t->rec.out && t->rec.out_len > 0 && t->outcome == UO_NORMAL; }

void emit_stdout_capture_helpers(strbuf *b)
{
    /* (an unlinked mkstemp file, not tmpfile: no heap block before the call, as in the recorder) */
    sb_puts(b, "/* ---- the standard output of the call under test, captured in a temporary file ---- */\n"
               "#include <stdio.h>\n#include <sys/types.h>\n"
               "int dup(int fd);\nint dup2(int fd, int to);\nint close(int fd);\nint mkstemp(char *templ);\n"
               "int unlink(const char *path);\noff_t lseek(int fd, off_t off, int whence);\n"
               "ssize_t read(int fd, void *buf, size_t n);\n"
               "static int stdout_fd = -1, stdout_saved = -1;\nstatic size_t stdout_len;\n\n"
               "static void stdout_capture_begin(void) {\n"
               "    char path[] = \"/tmp/stdout-XXXXXX\";\n"
               "    fflush(stdout);\n"
               "    stdout_fd = mkstemp(path);\n"
               "    assert_true(stdout_fd >= 0);\n"
               "    unlink(path);\n"
               "    stdout_saved = dup(1);\n"
               "    assert_true(stdout_saved >= 0);\n"
               "    assert_true(dup2(stdout_fd, 1) == 1);\n"
               "}\n\n"
               "/* What the call wrote to stdout since stdout_capture_begin (the test frees it); stdout restored. */\n"
               "static char *stdout_capture_end(void) {\n"
               "    fflush(stdout);\n"
               "    dup2(stdout_saved, 1);\n"
               "    close(stdout_saved);\n"
               "    off_t len = lseek(stdout_fd, 0, SEEK_END);\n"
               "    stdout_len = len > 0 ? (size_t)len : 0;\n"
               "    char *text = calloc(stdout_len + 1, 1);\n"
               "    size_t got = 0;\n"
               "    ssize_t k = 1;\n"
               "    if (text && lseek(stdout_fd, 0, SEEK_SET) == 0)\n"
               "        while (got < stdout_len && (k = read(stdout_fd, text + got, stdout_len - got)) > 0) got += "
               "(size_t)k;\n"
               "    close(stdout_fd);\n"
               "    return text;\n"
               "}\n\n");
}

void emit_stdout_asserts(strbuf *b, const names *n)
{
    const unit_record *r = n->r;
    if (!r->out || r->out_len == 0) return;
    if (r->nout == r->out_len && !memchr(r->out, 0, r->nout)) {
        sb_puts(b, "    assert_string_equal(stdout_text, ");
        emit_c_string(b, r->out, r->nout);
        sb_puts(b, ");\n");
    } else {
        sb_printf(b, "    assert_int_equal(stdout_len, %zu);\n    assert_memory_equal(stdout_text, ", r->out_len);
        emit_c_string(b, r->out, r->nout);
        sb_printf(b, ", %zu);\n", r->nout);
    }
}
