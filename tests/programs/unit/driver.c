/* driver.c: driver code calling hardware functions that are not linked (sympath unit e2e, with ops.c). */
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
