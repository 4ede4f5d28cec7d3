/* segs.h: a path split into segments (a cursor into the caller's text, filled by seg_first) and a version parsed into the caller's struct. */
#ifndef SEGS_H
#define SEGS_H
#include <stdbool.h>
#include <stddef.h>

struct seg {
    const char *text;  /* the whole path */
    const char *begin; /* the segment: [begin, end) inside text */
    const char *end;
    size_t index;
};

/* The first segment of path (separators '/'); false when there is none (s untouched). */
bool seg_first(const char *path, struct seg *s);
/* Moves s to the next segment; false at the last one (s unchanged). */
bool seg_next(struct seg *s);
/* 1 when the segment is "..", 2 when ".", 3 for a segment after the first of 3 bytes or more, else 0. */
int seg_kind(const struct seg *s);

struct version {
    int major, minor, patch;
    char *tag; /* after '-', malloc'ed, or NULL */
};

/* Parses "MAJOR[.MINOR[.PATCH]][-TAG]"; 0, or -1 on malformed text (v untouched). */
int version_parse(const char *text, struct version *v);
/* Whether v is a pre-release of a 1.x or later version: 2 with a tag, 1 without, 0 before 1.0. */
int version_stable(const struct version *v);
void version_free(struct version *v);
#endif
