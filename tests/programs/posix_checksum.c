// A checksum verifier (built with -D_FILE_OFFSET_BITS=64, so the headers call open64/fopen64): the file's size from fstat and from fseek/ftell, its bytes through read(), the last byte must be the sum of the others. --sym-file sum.bin 4; every branch covered, replay gives the same file.
// SYMPATH-ARGS: --sym-file sum.bin 4 --cflags -D_FILE_OFFSET_BITS=64 --budget 10s
// EXPECT-COVERAGE: 100
// EXPECT-REPLAY
// EXPECT-NO-ERRORS
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sympath.h"

int main(void) {
    FILE *f = fopen("sum.bin", "rb");
    fseek(f, 0, SEEK_END);
    long size = ftell(f);            /* the file's (symbolic) length */
    rewind(f);
    int first = fgetc(f);
    fclose(f);
    int fd = open("sum.bin", O_RDONLY);
    struct stat st;
    fstat(fd, &st);
    if (size < 2) {
        close(fd);
        return 1;                     /* too short */
    }
    unsigned char buf[8];
    ssize_t n = read(fd, buf, sizeof buf);
    close(fd);
    unsigned sum = 0;
    for (ssize_t i = 0; i + 1 < n; i++)
        sum += buf[i];
    /* fstat and ftell agree on the size, fgetc and read on the first byte: a safety check
     * the explorer tries to violate (no branch of the program's own) */
    sym_assert((st.st_size == size) & (buf[0] == (unsigned char)first));
    if ((unsigned char)sum == buf[n - 1])
        return 0;                     /* checksum ok */
    return 2;
}
