/* report.c: the error hook of hexnum.c (linked, not included, when hexnum.c's static helper is under test). */
int report_bad(char c) {
    if (c == '-') return -4;
    return -3;
}
