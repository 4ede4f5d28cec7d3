// A program reading a named file line by line with fopen/fgets (--sym-file config.txt 6: up to 6 symbolic bytes), and the same file again with open/read (as ./config.txt). A file of another name is not symbolic (fopen fails). Every branch is covered and replay gives the program the same file.
// SYMPATH-ARGS: --sym-file config.txt 6 --budget 30s
// EXPECT-COVERAGE: 100
// EXPECT-ERROR: reach_error 0
// EXPECT-REPLAY
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "posix_file.c", 10, "reach_error"); }

int main(void) {
    FILE *none = fopen("no-such-file.txt", "r");   /* not symbolic: the real fopen, NULL */
    FILE *f = fopen("config.txt", "r");
    char line[8];
    int keys = 0, comments = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#')
            comments++;
        else if (line[0] == 'k' && line[1] == '=')
            keys++;
    }
    fclose(f);
    int fd = open("./config.txt", O_RDONLY);   /* the same file */
    char buf[8];
    ssize_t n = read(fd, buf, sizeof buf);
    close(fd);
    if (keys == 1 && comments == 1 && n == 5)
        reach_error();
    return keys + 10 * (none != NULL);
}
