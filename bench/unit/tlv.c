/* tlv.c: a parser of type-length-value records in a byte buffer (sympath unit benchmark). */
#include <stddef.h>
#include <stdint.h>

struct tlv_stats {
    unsigned records;
    unsigned unknown;
    uint8_t last_type;
};

/* Walks records [type][len][len bytes]; type 0xFF ends the buffer. Returns the number of
 * records, or a negative error: -1 truncated record, -2 record of type 1 with a bad length. */
int tlv_scan(const uint8_t *buf, size_t len, struct tlv_stats *st) {
    size_t i = 0;
    st->records = st->unknown = 0;
    while (i < len) {
        uint8_t t = buf[i];
        if (t == 0xFF) break;
        if (i + 1 >= len) return -1;
        uint8_t l = buf[i + 1];
        if (i + 2 + l > len) return -1;
        if (t == 1 && l != 2) return -2;
        if (t > 3) st->unknown++;
        st->records++;
        st->last_type = t;
        i += 2 + (size_t)l;
    }
    return (int)st->records;
}

uint16_t checksum16(const uint8_t *data, size_t n) {
    uint16_t sum = 0;
    for (size_t i = 0; i < n; i++) {
        sum = (uint16_t)(sum + data[i]);
        if (sum & 0x8000) sum ^= 0x1021;
    }
    return sum;
}
