/* demo.c: a small message parser with a checksum, a length field and a planted bug: the bundled example of `make demo`. */
#include <string.h>
#include "sympath.h"

extern void reach_error(void);

#define MAX_PAYLOAD 8

struct message {
    unsigned char kind;
    unsigned char len;
    unsigned char payload[MAX_PAYLOAD];
    unsigned short checksum;
};

static unsigned short checksum(const unsigned char *p, int n) {
    unsigned short sum = 0x1d0f;
    for (int i = 0; i < n; i++) sum = (unsigned short)((sum << 3) ^ (sum >> 13) ^ p[i]);
    return sum;
}

/* Returns 0 for a valid message, a negative code otherwise. */
static int parse(const struct message *m, int *out) {
    if (m->len > MAX_PAYLOAD) return -1;
    if (checksum(m->payload, m->len) != m->checksum) return -2;
    switch (m->kind) {
    case 'A':
        *out = m->len ? m->payload[0] : 0;
        return 0;
    case 'S':
        if (m->len < 4) return -3;
        *out = m->payload[0] | m->payload[1] << 8 | m->payload[2] << 16 | m->payload[3] << 24;
        if (*out == 0x5a5a1234) reach_error();   /* the planted bug: a "magic" value slips through */
        return 0;
    case 'D': {
        int divisor = m->payload[0] - 'd';
        if (m->len < 1) return -3;
        *out = 1000 / divisor;                   /* crashes when payload[0] == 'd' */
        return 0;
    }
    default:
        return -4;
    }
}

int main(void) {
    struct message m;
    memset(&m, 0, sizeof m);
    m.kind = sym_uchar("kind");
    m.len = sym_uchar("len");
    sym_bytes(m.payload, MAX_PAYLOAD, "payload");
    m.checksum = sym_ushort("checksum");
    int value = 0;
    int rc = parse(&m, &value);
    return rc == 0 ? 0 : 1;
}
