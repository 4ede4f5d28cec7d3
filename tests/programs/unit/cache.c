/* cache.c: calls store_put, defined in store.c of the same unit (sympath unit e2e for --mock of a defined function). */
int store_put(int key, int val);

int cache_set(int key, int val) {
    if (key < 0) return -1;
    if (store_put(key, val) != 0) return -2;
    return 0;
}
