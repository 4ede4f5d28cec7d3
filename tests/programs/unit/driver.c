/* driver.c: driver code calling hardware functions that are not linked (sympath unit e2e, with ops.c). */
#include <stddef.h>
#include <stdint.h>

int hw_status(void);              /* not defined in the unit: mocked */
int hw_read(uint8_t reg);         /* not defined in the unit: mocked */

/* Waits until the device is ready, at most 3 polls, then reads register 2. */
int dev_read_ready(void) {
    int tries = 0;
    while (hw_status() != 1) {
        tries++;
        if (tries == 3) return -1;
    }
    int v = hw_read(2);
    if (v > 200) return 200;
    return v;
}

int hw_temp(int *celsius);        /* not defined in the unit: mocked, writes through its parameter */

/* 1 when the sensor reads above 90 degrees, 0 below, -1 when it fails. */
int overheated(void) {
    int t;
    if (hw_temp(&t) != 0) return -1;
    if (t > 90) return 1;
    return 0;
}

struct bus;                        /* opaque: declared, never defined */
int bus_write(struct bus *b, uint8_t reg, uint8_t val);   /* not defined in the unit: mocked */

/* Writes a register; the bus handle is only passed on. */
int dev_configure(struct bus *b, uint8_t mode) {
    if (b == NULL) return -1;
    if (mode > 3) return -2;
    if (bus_write(b, 0x10, mode) != 0) return -3;
    return 0;
}
