/* store.c: a fixed table; store_fill calls store_put inside this file (sympath unit e2e). */
static int table[16];

int store_put(int key, int val) {
    if (key >= 16) return 1;
    table[key] = val;
    return 0;
}

int store_fill(int val) {
    int bad = 0;
    for (int k = 0; k < 2; k++) bad += store_put(k, val);
    return bad;
}
