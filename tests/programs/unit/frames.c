// frames.c: a frame checker whose branches test the buffer's length (each needs a length the harness's fill gave no branch on), and a scanner set up by an init function with a string store and its length (stb_c_lexer_init's shape) (tests/e2e/test_unit_pairlen.sh).
#include <stddef.h>

/* a frame: 'F', a kind byte, a payload, then a checksum byte (the sum of the bytes between) */
int frame_check(const unsigned char *buf, size_t len)
{
    if (len < 4) return -1;
    if (len > 12) return -2;
    if (buf[0] != 'F') return -3;
    unsigned s = 0;
    for (size_t i = 1; i + 1 < len; i++) s += buf[i];
    if ((s & 0xff) != buf[len - 1]) return -4;
    if (len == 7 && buf[1] == 2) return 2;
    return 1;
}

typedef struct scanner {
    const char *at, *end;
    char *string_store;
    int store_length;
    int stored;
} scanner;

void scanner_init(scanner *s, const char *input, const char *input_end, char *string_store, int store_length)
{
    s->at = input;
    s->end = input_end;
    s->string_store = string_store;
    s->store_length = store_length;
    s->stored = 0;
}

/* copies the next word into the store; 1 for a word, 0 at the end, -1 when the store is full */
int scanner_word(scanner *s)
{
    while (s->at < s->end && *s->at == ' ') s->at++;
    if (s->at == s->end) return 0;
    int n = 0;
    while (s->at < s->end && *s->at != ' ') {
        if (n + 1 >= s->store_length) return -1;
        s->string_store[n++] = *s->at++;
    }
    s->string_store[n] = 0;
    s->stored = n;
    return 1;
}
