/* sql_rewrite.c: SQL text without a parse tree: ?/:name parameters to $N, the FROM keyword's offset, hidden rowid columns. */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "db.h"
#include "sql_int.h"
#include "util/util.h"

/* ---------------------------------------------------------------- lexical helpers */

/* Length of the quoted token at s[0] ('...', "...", `...`, [...]) within s[0..n), or 0. */
static size_t quoted_len(const char *s, size_t n)
{
    char close = s[0] == '[' ? ']' : s[0];
    if (close != '\'' && close != '"' && close != '`' && close != ']') return 0;
    size_t i = 1;
    while (i < n) {
        if (s[i] == close) {
            if (close != ']' && i + 1 < n && s[i + 1] == close) { /* doubled quote */
                i += 2;
                continue;
            }
            return i + 1;
        }
        i++;
    }
    return n;
}

/* Length of a comment at s[0] ("-- ...\n" or block comment), or 0. */
static size_t comment_len(const char *s, size_t n)
{
    if (n >= 2 && s[0] == '-' && s[1] == '-') {
        size_t i = 2;
        while (i < n && s[i] != '\n') i++;
        return i;
    }
    if (n >= 2 && s[0] == '/' && s[1] == '*') {
        size_t i = 2;
        while (i + 1 < n && !(s[i] == '*' && s[i + 1] == '/')) i++;
        return i + 2 <= n ? i + 2 : n;
    }
    return 0;
}

/* Length of a quoted string or a comment at s[0], or 0. */
static size_t skipped_len(const char *s, size_t n)
{
    size_t q = quoted_len(s, n);
    return q ? q : comment_len(s, n);
}

/* The index of the parenthesis that closes the one at sql[open] (quotes and comments skipped), or len. */
static size_t closing_paren(const char *sql, size_t len, size_t open)
{
    size_t close = open + 1;
    for (int d = 1; close < len && d > 0;) {
        size_t qq = skipped_len(sql + close, len - close);
        if (qq) {
            close += qq;
            continue;
        }
        d += sql[close] == '(' ? 1 : sql[close] == ')' ? -1 : 0;
        close += d > 0;
    }
    return close;
}

static int ident_char(int c) { return isalnum(c) || c == '_' || c >= 0x80; }

/* Parameter numbers stop growing past SQLite's largest (?32766; SQLITE_MAX_VARIABLE_NUMBER):
 * SQLite refuses such a statement anyway, and the number must not overflow. */
#define PARAM_NUM_CAP 32767

char *db_sql_params_to_pg(const char *sql, size_t len, int *nparams)
{
    /* an output never exceeds what is left of the input plus one "$N" and the NUL, checked per
     * step: a one-byte "?" can become "$32767" */
    size_t cap = len * 2 + 16, o = 0;
    char *out = malloc(cap);
    /* named parameters seen so far and their numbers */
    const char *names[128];
    size_t name_len[128];
    int name_num[128], nnames = 0, max = 0;
    if (!out) return NULL;
    for (size_t i = 0; i < len;) {
        if (o + (len - i) + 16 > cap) {
            size_t c = 2 * cap > o + (len - i) + 16 ? 2 * cap : o + (len - i) + 16;
            char *bigger = realloc(out, c);
            if (!bigger) {
                free(out);
                return NULL;
            }
            out = bigger, cap = c;
        }
        size_t q = skipped_len(sql + i, len - i);
        if (q) {
            memcpy(out + o, sql + i, q);
            o += q, i += q;
            continue;
        }
        char c = sql[i];
        int num = 0;
        if (c == '?') {
            size_t j = i + 1;
            while (j < len && isdigit((unsigned char)sql[j])) {
                num = num * 10 + (sql[j++] - '0');
                if (num > PARAM_NUM_CAP) num = PARAM_NUM_CAP;
            }
            if (j == i + 1) num = max < PARAM_NUM_CAP ? max + 1 : PARAM_NUM_CAP;
            i = j;
        } else if ((c == ':' || c == '@' || c == '$') && i + 1 < len && ident_char((unsigned char)sql[i + 1]) &&
                   !(c == ':' && i > 0 && sql[i - 1] == ':')) {
            size_t j = i + 1;
            while (j < len && ident_char((unsigned char)sql[j])) j++;
            if (c == '$' && isdigit((unsigned char)sql[i + 1])) { /* already $N */
                while (i < j) out[o++] = sql[i++];
                continue;
            }
            for (int k = 0; k < nnames && !num; k++)
                if (name_len[k] == j - i && !memcmp(names[k], sql + i, j - i)) num = name_num[k];
            if (!num) {
                num = max < PARAM_NUM_CAP ? max + 1 : PARAM_NUM_CAP;
                if (nnames < 128) {
                    names[nnames] = sql + i, name_len[nnames] = j - i, name_num[nnames] = num;
                    nnames++;
                }
            }
            i = j;
        } else {
            out[o++] = c;
            i++;
            continue;
        }
        if (num > max) max = num;
        o += (size_t)snprintf(out + o, cap - o, "$%d", num);
    }
    out[o] = 0;
    *nparams = max;
    return out;
}

/* Byte offset of the first FROM keyword at parenthesis depth 0, outside quotes and comments. */
size_t db_sql_find_from(const char *sql, size_t len)
{
    int depth = 0;
    for (size_t i = 0; i < len;) {
        size_t q = skipped_len(sql + i, len - i);
        if (q) {
            i += q;
            continue;
        }
        if (sql[i] == '(')
            depth++;
        else if (sql[i] == ')')
            depth--;
        else if (!depth && len - i >= 4 && !strncasecmp(sql + i, "from", 4) &&
                 (i == 0 || !ident_char((unsigned char)sql[i - 1])) &&
                 (i + 4 == len || !ident_char((unsigned char)sql[i + 4])))
            return i;
        i++;
    }
    return (size_t)-1;
}

/* The k-th body of the statement's leading WITH list: the offset of its FROM keyword (returned) and of the closing
 * parenthesis of its column list (*cols; (size_t)-1: none); (size_t)-1 when not found. */
static size_t cte_scan(const char *sql, size_t len, int k, size_t *cols)
{
    /* the bodies are the parenthesized groups at depth 0 that follow the word AS or MATERIALIZED; the
     * main query's SELECT at depth 0 ends the list; another group at depth 0 is the column list of the next body */
    int depth = 0, n = 0;
    size_t word = 0, wlen = 0, open = 0;
    bool body = false;
    *cols = (size_t)-1;
    for (size_t i = 0; i < len;) {
        size_t q = skipped_len(sql + i, len - i);
        if (q) {
            i += q;
            continue;
        }
        if (sql[i] == '(') {
            if (!depth) {
                body = (wlen == 2 && !strncasecmp(sql + word, "as", 2)) ||
                       (wlen == 12 && !strncasecmp(sql + word, "materialized", 12));
                open = i;
            }
            depth++, i++, wlen = 0;
            continue;
        }
        if (sql[i] == ')') {
            if (--depth == 0 && body && n++ == k) {
                size_t f = db_sql_find_from(sql + open + 1, i - open - 1);
                return f == (size_t)-1 ? f : open + 1 + f;
            }
            if (depth == 0) *cols = body ? (size_t)-1 : i;
            if (depth < 0) return (size_t)-1;
            i++;
            continue;
        }
        if (!depth && ident_char((unsigned char)sql[i])) {
            size_t j = i;
            while (j < len && ident_char((unsigned char)sql[j])) j++;
            word = i, wlen = j - i;
            if (n > 0 && wlen == 6 && !strncasecmp(sql + i, "select", 6)) return (size_t)-1;
            i = j;
            continue;
        }
        i++;
    }
    return (size_t)-1;
}

size_t db_sql_cte_from(const char *sql, size_t len, int k)
{
    size_t cols;
    return cte_scan(sql, len, k, &cols);
}

size_t db_sql_cte_cols_end(const char *sql, size_t len, int k)
{
    size_t cols;
    return cte_scan(sql, len, k, &cols) == (size_t)-1 ? (size_t)-1 : cols;
}

size_t db_sql_subselect_from(const char *sql, size_t len, size_t start, int k)
{
    /* a FROM item's subquery is a parenthesized group at depth 0 that follows FROM, JOIN or a comma and
     * whose first word is SELECT; other groups (ON conditions, IN (SELECT ...) of a WHERE) are skipped */
    int depth = 0, n = 0;
    size_t open = 0;
    bool item = false, after_item_word = false, first = false;
    for (size_t i = start; i < len;) {
        size_t q = skipped_len(sql + i, len - i);
        if (q) {
            i += q, after_item_word = false;
            continue;
        }
        char ch = sql[i];
        if (ch == '(') {
            if (!depth) item = after_item_word, first = true, open = i;
            depth++, i++;
            continue;
        }
        if (ch == ')') {
            if (--depth < 0) return (size_t)-1;
            i++, after_item_word = false;
            continue;
        }
        if (isspace((unsigned char)ch)) {
            i++;
            continue;
        }
        if (ident_char((unsigned char)ch)) {
            size_t j = i;
            while (j < len && ident_char((unsigned char)sql[j])) j++;
            if (depth == 1 && first && item) {
                if (j - i == 6 && !strncasecmp(sql + i, "select", 6) && n++ == k) {
                    size_t close = closing_paren(sql, len, open); /* the group's end, for its own FROM keyword */
                    size_t f = db_sql_find_from(sql + open + 1, close - open - 1);
                    return f == (size_t)-1 ? f : open + 1 + f;
                }
            }
            if (depth == 1) first = false;
            if (!depth)
                after_item_word = j - i == 4 && (!strncasecmp(sql + i, "from", 4) || !strncasecmp(sql + i, "join", 4));
            i = j;
            continue;
        }
        if (depth == 1) first = false;
        if (!depth) after_item_word = ch == ',';
        i++;
    }
    return (size_t)-1;
}

char *db_query_with_rowid(const db_query *q, const char *sql, size_t len)
{
    return db_query_with_hidden(q, sql, len, "rowid");
}

/* Append to out at *o the hidden column of FROM item f: `, "name".column`, or for an item that is an inlined WITH
 * query, its column `sympath_hidden_f` (added to the query's body); inside array_agg(...)[1] when agg. */
static void put_hidden(const db_query *q, int f, const char *column, bool agg, char *out, size_t *o)
{
    *o += (size_t)sprintf(out + *o, agg ? ", (array_agg(\"" : ", \"");
    for (const char *p = q->from_name[f]; *p; p++) { /* quotes doubled */
        if (*p == '"') out[(*o)++] = '"';
        out[(*o)++] = *p;
    }
    if (q->cte_from_at[f])
        *o += (size_t)sprintf(out + *o, agg ? "\".sympath_hidden_%d))[1]" : "\".sympath_hidden_%d", f);
    else
        *o += (size_t)sprintf(out + *o, agg ? "\".%s))[1]" : "\".%s", column);
}

char *db_query_with_hidden(const db_query *q, const char *sql, size_t len, const char *column)
{
    if (q->from_at > len) return NULL;
    size_t extra = 0;
    /* GROUP BY: SQLite takes a bare column from some row of the group; PostgreSQL needs an aggregate */
    bool agg = q->ngroup && strcmp(column, "rowid") != 0;
    for (int f = 0; f < q->nfrom; f++) extra += 2 * (2 * strlen(q->from_name[f]) + strlen(column) + 48) + 24;
    char *out = malloc(len + extra + 2);
    if (!out) return NULL;
    /* in text order: ", rowid AS sympath_hidden_f" before the FROM keyword of each WITH query's body (before the
     * main FROM; a WITH query under two names gets both), its name at the end of the query's column list if it has
     * one, and of each subquery in FROM (after it), and the hidden columns of every item before the main FROM keyword */
    size_t i = 0, o = 0;
    bool main_done = false;
    for (;;) {
        size_t at = (size_t)-1;
        for (int f = 0; f < q->nfrom; f++) {
            if (q->cte_from_at[f] && q->cte_from_at[f] - 1 >= i && q->cte_from_at[f] - 1 < at)
                at = q->cte_from_at[f] - 1;
            if (q->cte_cols_at[f] && q->cte_cols_at[f] - 1 >= i && q->cte_cols_at[f] - 1 < at)
                at = q->cte_cols_at[f] - 1;
        }
        bool main = !main_done && q->from_at <= at;
        if (main) at = q->from_at;
        if (at == (size_t)-1) break;
        memcpy(out + o, sql + i, at - i);
        o += at - i, i = at;
        if (main) {
            for (int f = 0; f < q->nfrom; f++) put_hidden(q, f, column, agg, out, &o);
            out[o++] = ' ';
            main_done = true;
            continue;
        }
        for (int f = 0; f < q->nfrom; f++) {
            if (q->cte_from_at[f] == at + 1) o += (size_t)sprintf(out + o, ", %s AS sympath_hidden_%d ", column, f);
            if (q->cte_cols_at[f] == at + 1) o += (size_t)sprintf(out + o, ", sympath_hidden_%d", f);
        }
        out[o++] = sql[i++]; /* past the offset: the F of FROM, or the column list's ')' */
    }
    memcpy(out + o, sql + i, len - i);
    out[o + len - i] = 0;
    if (agg && !q->has_order_by && q->limit < 0 && !q->limit_param && !q->offset && !q->offset_param) {
        /* PostgreSQL returns hashed groups in no fixed order, and a program's branches over them then
         * differ from run to run (divergences): the groups in the order of their first row's slot, as
         * the group events enumerate them (any order is SQL's; this one is the same every time) */
        size_t end = strlen(out);
        while (end > 0 && (isspace((unsigned char)out[end - 1]) || out[end - 1] == ';')) end--;
        out[end] = 0;
        char *ordered = NULL;
        if (asprintf(&ordered, "%s ORDER BY (array_agg(\"%s\".%s))[1]", out, q->from_name[0],
                     q->cte_from_at[0] ? "sympath_hidden_0" : column) < 0 ||
            strchr(q->from_name[0], '"')) {
            free(ordered);
            return out;
        }
        free(out);
        return ordered;
    }
    return out;
}

/* Whether the word at s[0..n) may follow a FROM item in place of an alias (a keyword that starts the next clause or
 * join), so that a subquery followed by it has no alias. */
static bool clause_word(const char *s, size_t n)
{
    static const char *words[] = {"where",  "group",  "order",  "limit",     "offset", "join",  "inner", "left",
                                  "right",  "full",   "cross",  "natural",   "on",     "using", "union", "intersect",
                                  "except", "having", "window", "returning", "fetch",  "for"};
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (strlen(words[i]) == n && !strncasecmp(s, words[i], n)) return true;
    return false;
}

char *db_sql_alias_subqueries(const char *sql, int *added)
{
    size_t len = strlen(sql), at[16];
    int n = 0;
    bool item_word = false; /* the last word was FROM or JOIN */
    for (size_t i = 0; i < len && n < 16;) {
        size_t q = skipped_len(sql + i, len - i);
        if (q) {
            i += q, item_word = false;
            continue;
        }
        char ch = sql[i];
        if (isspace((unsigned char)ch)) {
            i++;
            continue;
        }
        if (ident_char((unsigned char)ch)) {
            size_t j = i;
            while (j < len && ident_char((unsigned char)sql[j])) j++;
            item_word = j - i == 4 && (!strncasecmp(sql + i, "from", 4) || !strncasecmp(sql + i, "join", 4));
            i = j;
            continue;
        }
        if (ch == '(' && item_word) { /* a FROM item in parentheses: a subquery when it starts with SELECT or WITH */
            size_t b = i + 1;
            while (b < len && isspace((unsigned char)sql[b])) b++;
            size_t close = closing_paren(sql, len, i);
            if ((!strncasecmp(sql + b, "select", 6) || !strncasecmp(sql + b, "with", 4)) && close < len) {
                size_t k = close + 1;
                for (;;) { /* the next word after it: an alias, AS, or a clause keyword */
                    while (k < len && isspace((unsigned char)sql[k])) k++;
                    size_t c = comment_len(sql + k, len - k);
                    if (!c) break;
                    k += c;
                }
                size_t e = k;
                while (e < len && ident_char((unsigned char)sql[e])) e++;
                bool alias = (e > k && !clause_word(sql + k, e - k)) || (k < len && sql[k] == '"');
                if (!alias) at[n++] = close + 1;
            }
        }
        item_word = false;
        i++;
    }
    *added = n;
    if (!n) return NULL;
    strbuf o = STRBUF_INIT;
    size_t from = 0;
    for (int k = 0; k < n; k++) {
        sb_printf(&o, "%.*s AS sympath_sub_%d", (int)(at[k] - from), sql + from, k);
        from = at[k];
    }
    sb_printf(&o, "%s", sql + from);
    if (o.failed) {
        sb_free(&o);
        return NULL;
    }
    return o.s;
}
