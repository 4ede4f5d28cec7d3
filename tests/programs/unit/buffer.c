/* buffer.c: a buffer/length pair with a bound check and magic bytes, an enum switch, a wrapper and a NULL handed to strchr (sympath unit e2e). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

enum kind { KIND_NONE, KIND_TEXT = 3, KIND_IMAGE, KIND_AUDIO = 10 };

/* Recognises a small header: 'S' 'Y' 'M' then a version byte below 3. */
int parse_header(const uint8_t *buf, size_t len) {
    if (len < 4) return -1;
    if (buf[0] != 'S' || buf[1] != 'Y' || buf[2] != 'M') return -2;
    if (buf[3] >= 3) return -3;
    return buf[3];
}

int kind_cost(enum kind k) {
    switch (k) {
    case KIND_NONE: return 0;
    case KIND_TEXT: return 1;
    case KIND_IMAGE: return 5;
    case KIND_AUDIO: return 7;
    }
    return -1;
}

const char *kind_name(enum kind k) {
    switch (k) {
    case KIND_TEXT: return "text";
    case KIND_IMAGE: return "image";
    default: return "other";
    }
}

/* Enumerators named like <unistd.h>'s macros (R_OK, F_OK): the harness and the emitted tests
 * must not include headers that would turn them into numbers. */
enum access_status { F_OK = 7, R_OK = 8 };

enum access_status check_access(int mode) {
    if (mode & 4) return R_OK;
    return F_OK;
}

/* Floating-point parameters are symbolic: an exact product on a struct field, a huge double. */
struct sample { int id; float gain; };

int classify_gain(struct sample s, double offset) {
    float g = s.gain * 3.0f;
    if (g == 7.5f) return 1;
    if (offset > 1e301) return 2;
    return 0;
}

/* The length of the key of "key=value", or -1 without '='. */
int key_len(const char *line)
{
    const char *eq = strchr(line, '=');
    if (!eq) return -1;
    return (int)(eq - line);
}

/* A wrapper: every branch it runs is key_len's. */
int parse_line(const char *line) { return key_len(line); }

/* The key of the line after first when first starts with 'x': there is none, strchr gets NULL. */
int next_key(const char *first)
{
    if (first[0] == 'x') return key_len(NULL);
    return 0;
}
