/* reqline.c: a small request-line and header parser for `sympath unit` (tests/e2e/test_unit_reqline.sh):
 * headers filled into the caller's array (capacity in, count out), a parser set up by an init function
 * with a mode argument, callbacks in a table of function pointers, a query split into a bounded array, a
 * table of an unnamed struct type. */
#include <stddef.h>
#include <string.h>

struct rl_header {
    const char *name;
    size_t name_len;
    const char *value;
    size_t value_len;
};

enum rl_mode { RL_REQUEST, RL_RESPONSE, RL_BOTH };

typedef struct rl_parser {
    enum rl_mode mode;
    int state; /* 0: start, 1: in a token, 2: done */
    unsigned ntokens;
    int error;
} rl_parser;

typedef int (*rl_cb)(rl_parser *p);
typedef int (*rl_data_cb)(rl_parser *p, const char *at, size_t len);

typedef struct rl_callbacks {
    rl_cb on_begin;
    rl_data_cb on_token;
    rl_cb on_end;
} rl_callbacks;

struct rl_param {
    char *key;
    char *val;
};

/* a table of an unnamed struct type (http-parser's http_strerror_tab) */
static const struct {
    const char *name;
    int code;
} rl_errors[] = {{"OK", 0}, {"CALLBACK", 1}, {"TOO_MANY", 2}};

const char *rl_error_name(int e) { return e >= 0 && e < 3 ? rl_errors[e].name : "?"; }

void rl_parser_init(rl_parser *p, enum rl_mode mode)
{
    memset(p, 0, sizeof *p);
    p->mode = mode;
    p->state = mode == RL_RESPONSE ? 1 : 0;
}

void rl_callbacks_init(rl_callbacks *cb) { memset(cb, 0, sizeof *cb); }

/* Splits buf into space-separated tokens, calling on_begin once, on_token per token and on_end at the
 * end of the data; a callback's nonzero result stops the parser (error 1). A response parser counts
 * tokens from 1. Returns the bytes consumed. */
size_t rl_execute(rl_parser *p, const rl_callbacks *cb, const char *data, size_t len)
{
    size_t i = 0, start = 0;
    if (p->state == 2) return 0;
    if (cb->on_begin && cb->on_begin(p) != 0) {
        p->error = 1;
        return 0;
    }
    for (i = 0; i < len; i++) {
        if (data[i] == ' ' || data[i] == '\n') {
            if (i > start) {
                p->ntokens++;
                if (cb->on_token && cb->on_token(p, data + start, i - start) != 0) {
                    p->error = 1;
                    return i;
                }
            }
            start = i + 1;
            if (data[i] == '\n') {
                p->state = 2;
                if (cb->on_end && cb->on_end(p) != 0) p->error = 1;
                return i + 1;
            }
        }
    }
    return len;
}

/* Parses "NAME:VALUE\n" lines into headers (at most *num_headers of them); *num_headers gets the count.
 * Returns the bytes consumed by complete lines, -1 on a malformed line, -2 when there is no room, -3
 * for a name repeated on the next line. */
int rl_parse_headers(const char *buf, size_t len, struct rl_header *headers, size_t *num_headers)
{
    size_t max = *num_headers, n = 0, i = 0;
    *num_headers = 0;
    while (i < len) {
        size_t b = i, colon = 0;
        while (i < len && buf[i] != '\n') {
            if (buf[i] == ':' && !colon) colon = i;
            i++;
        }
        if (i == len) break; /* an incomplete line */
        if (!colon || colon == b) return -1;
        if (n == max) return -2;
        headers[n].name = buf + b;
        headers[n].name_len = colon - b;
        headers[n].value = buf + colon + 1;
        headers[n].value_len = i - colon - 1;
        if (n > 0 && headers[n].name_len == headers[n - 1].name_len &&
            !memcmp(headers[n].name, headers[n - 1].name, headers[n].name_len))
            return -3; /* the same name twice in a row */
        n++;
        *num_headers = n;
        i++;
    }
    return (int)i;
}

/* Splits "k=v&k2" in place into params (at most max_params); returns the count, -1 for an empty query. */
int rl_split_query(char *query, struct rl_param *params, int max_params)
{
    int n = 0;
    if (query == NULL || *query == '\0') return -1;
    while (n < max_params) {
        char *amp = strchr(query, '&'), *eq;
        if (amp) *amp = '\0';
        params[n].key = query;
        eq = strchr(query, '=');
        if (eq) {
            *eq = '\0';
            params[n].val = eq + 1;
        } else {
            params[n].val = NULL;
        }
        n++;
        if (!amp) break;
        query = amp + 1;
    }
    return n;
}
