/* concrete_work.c: a mostly concrete workload (sorting, hashing, a sieve) with one symbolic input, to measure the executor's overhead against native. */
extern int __VERIFIER_nondet_int(void);

#define N 200000
static unsigned int data[N];
static unsigned char sieve[N];

static void sort(unsigned int *a, int n) {   /* shell sort: branchy and memory-heavy */
    for (int gap = n / 2; gap > 0; gap /= 2)
        for (int i = gap; i < n; i++) {
            unsigned int t = a[i];
            int j = i;
            for (; j >= gap && a[j - gap] > t; j -= gap) a[j] = a[j - gap];
            a[j] = t;
        }
}

int main(void) {
    int seed = __VERIFIER_nondet_int();
    unsigned int x = 12345;
    for (int i = 0; i < N; i++) {
        x = x * 1103515245u + 12345u;
        data[i] = x >> 8;
    }
    sort(data, N);
    unsigned int h = 2166136261u;
    for (int i = 0; i < N; i++) h = (h ^ data[i]) * 16777619u;
    int primes = 0;
    for (int i = 2; i < N; i++) {
        if (sieve[i]) continue;
        primes++;
        for (int j = 2 * i; j < N; j += i) sieve[j] = 1;
    }
    if (seed == (int)h) return 3;           /* the only symbolic branch */
    return primes == 17984 ? 0 : 1;
}
