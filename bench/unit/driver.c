/* driver.c: driver code calling hardware access functions that are not linked (sympath unit benchmark). */
#include <stdint.h>

enum led { LED_OFF, LED_GREEN, LED_RED };

int spi_xfer(uint8_t out);          /* hardware: mocked */
uint32_t timer_ms(void);            /* hardware: mocked */
void led_set(enum led l);           /* hardware: mocked */

/* Sends a command, retries twice on a NAK (0x15), reports through the LED. */
int send_cmd(uint8_t cmd) {
    for (int attempt = 0; attempt < 3; attempt++) {
        int r = spi_xfer(cmd);
        if (r == 0x06) {
            led_set(LED_GREEN);
            return attempt;
        }
        if (r != 0x15) break;
    }
    led_set(LED_RED);
    return -1;
}

/* Waits for a deadline measured by the timer; -1 when the timer runs backwards. */
int wait_until(uint32_t deadline) {
    uint32_t last = timer_ms();
    while (last < deadline) {
        uint32_t now = timer_ms();
        if (now < last) return -1;
        last = now;
    }
    return 0;
}
