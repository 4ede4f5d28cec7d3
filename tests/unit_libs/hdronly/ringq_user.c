/* ringq_user.c: a program file that includes the header-only ringq.h; asking it for ringq_push names the header
 * to give instead (test_unit_header_only.sh). */
#include "ringq.h"

int ringq_fill(ringq *q, int n) {
    int stored = 0;
    for (int i = 0; i < n; i++) stored += ringq_push(q, i) == 1;
    return stored;
}
