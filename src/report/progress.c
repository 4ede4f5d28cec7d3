/* progress.c: progress while exploring: OUT/stats once a second, and the one-line or full-screen display on stderr. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "../util/util.h"
#include "report.h"
#include "proto/env.h"

/* The last NOTES_MAX messages are shown on the screen; all are re-printed when it closes. */
#define NOTES_MAX 4

struct report_progress {
    int fd; /* OUT/stats, -1 when it could not be created */
    int stats_failed;
    report_display display;
    char *title;
    double budget;
    double last_stats, last_show; /* monotonic seconds of the last line / refresh; < 0: never */
    char **notes;                 /* every note, in order (SCREEN only) */
    size_t nnotes;
    int line_shown; /* LINE: a progress line is on the terminal, not yet ended */
};

/* The terminal sequences of the screen, written with write(2) (also from a signal handler):
 * alternate screen on + cursor hidden, and the reverse. */
static const char screen_enter[] = "\033[?1049h\033[?25l";
static const char screen_leave[] = "\033[?25h\033[?1049l";

static void write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return;
        p += w;
        n -= (size_t)w;
    }
}

/* ---- terminal restoration on a fatal signal ----
 * The CLI's handlers stop the exploration on the first Ctrl-C (the screen then closes
 * normally) and die of the second one (they reset the default action and raise the
 * signal, which stays blocked until the handler returns). The wrapper calls the CLI's
 * handler and, when that handler left the default action in place, leaves the alternate
 * screen before returning, so the dying process leaves the terminal as it found it. */
static const int wrapped_signals[] = {SIGINT, SIGTERM, SIGHUP};
#define NWRAPPED (sizeof wrapped_signals / sizeof wrapped_signals[0])
static struct sigaction saved_actions[NWRAPPED];
static volatile sig_atomic_t screen_active;

static void restore_on_signal(int sig)
{
    for (size_t i = 0; i < NWRAPPED; i++) {
        if (wrapped_signals[i] != sig) continue;
        const struct sigaction *prev = &saved_actions[i];
        if (!(prev->sa_flags & SA_SIGINFO) && prev->sa_handler != SIG_IGN && prev->sa_handler != SIG_DFL)
            prev->sa_handler(sig);
        struct sigaction now;
        sigaction(sig, NULL, &now);
        if (prev->sa_handler == SIG_DFL || now.sa_handler == SIG_DFL) {
            if (screen_active) write_all(2, screen_leave, sizeof screen_leave - 1);
            screen_active = 0;
            signal(sig, SIG_DFL);
            raise(sig); /* delivered when this handler returns */
        }
    }
}

static void wrap_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = restore_on_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < NWRAPPED; i++) {
        sigaction(wrapped_signals[i], NULL, &saved_actions[i]);
        if (saved_actions[i].sa_handler == SIG_IGN) continue;
        sigaction(wrapped_signals[i], &sa, NULL);
    }
}

static void unwrap_signals(void)
{
    for (size_t i = 0; i < NWRAPPED; i++) {
        struct sigaction now;
        sigaction(wrapped_signals[i], NULL, &now);
        if (now.sa_handler == restore_on_signal) sigaction(wrapped_signals[i], &saved_actions[i], NULL);
    }
}

/* ---- display ---- */

report_display report_display_auto(int want)
{
    const char *force = getenv(SYMPATH_ENV_PROGRESS);
    if (!want) return REPORT_DISPLAY_OFF;
    if (force && strcmp(force, "screen") == 0) return REPORT_DISPLAY_SCREEN;
    if (force && strcmp(force, "line") == 0) return REPORT_DISPLAY_LINE;
    if (!isatty(2)) return REPORT_DISPLAY_OFF;
    const char *term = getenv("TERM");
    if (!term || !*term || strcmp(term, "dumb") == 0) return REPORT_DISPLAY_LINE;
    struct winsize ws;
    if (ioctl(2, TIOCGWINSZ, &ws) != 0 || ws.ws_col < 60 || ws.ws_row < 16) return REPORT_DISPLAY_LINE;
    return REPORT_DISPLAY_SCREEN;
}

static unsigned term_width(void)
{
    struct winsize ws;
    if (ioctl(2, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 40) return ws.ws_col;
    return 80;
}

static void show_line(report_progress *p, const report_sample *r, int final)
{
    double pct = r->total ? 100.0 * r->covered / r->total : 100.0;
    char budget[32] = "";
    if (p->budget > 0) snprintf(budget, sizeof budget, "/%.0fs", p->budget);
    char text[400], buf[512];
    snprintf(text, sizeof text,
             "[sympath] branches %u/%u (%.1f%%)  tests %llu  errors %u  execs %llu (%.0f/s)  %.1fs%s", r->covered,
             r->total, pct, (unsigned long long)r->tests, r->errors, (unsigned long long)r->execs,
             r->elapsed > 0 ? r->execs / r->elapsed : 0.0, r->elapsed, budget);
    /* a line that wrapped could not be rewritten in place by \r: cut it to the terminal */
    unsigned w = isatty(2) ? term_width() : 400;
    if (strlen(text) > w - 1) text[w - 1] = 0;
    int n = snprintf(buf, sizeof buf, "\r\033[K%s%s", text, final ? "\n" : "");
    if (n > 0) write_all(2, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
    p->line_shown = !final;
}

static void show_screen(report_progress *p, const report_sample *r, const char *target)
{
    static char text[16384], out[20000];
    size_t from = p->nnotes > NOTES_MAX ? p->nnotes - NOTES_MAX : 0;
    size_t len = report_status_render(r, p->title, target, p->budget, (const char *const *)p->notes + from,
                                      p->nnotes - from, term_width(), text, sizeof text);
    /* home, then each line followed by "erase to end of line", then erase below */
    size_t o = 0;
    memcpy(out, "\033[H", 3);
    o = 3;
    for (size_t i = 0; i < len && o + 8 < sizeof out; i++) {
        if (text[i] == '\n') {
            memcpy(out + o, "\033[K\r\n", 5);
            o += 5;
        } else {
            out[o++] = text[i];
        }
    }
    if (o + 4 < sizeof out) {
        memcpy(out + o, "\033[J", 3);
        o += 3;
    }
    write_all(2, out, o);
}

/* ---- the object ---- */

report_progress *report_progress_open(const char *out_dir, report_display display, const char *title,
                                      double budget_seconds)
{
    report_progress *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->display = display;
    p->title = strdup(title ? title : "sympath");
    p->budget = budget_seconds;
    p->last_stats = p->last_show = -1;
    p->fd = -1;
    if (out_dir) {
        char path[4096];
        snprintf(path, sizeof path, "%s/stats", out_dir);
        p->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
        if (p->fd < 0) {
            p->stats_failed = 1;
        } else {
            write_all(p->fd, report_stats_header, strlen(report_stats_header));
            write_all(p->fd, "\n", 1);
        }
    }
    if (display == REPORT_DISPLAY_SCREEN) {
        wrap_signals();
        screen_active = 1;
        write_all(2, screen_enter, sizeof screen_enter - 1);
    }
    return p;
}

int report_progress_due(const report_progress *p, int final)
{
    if (!p) return 0;
    if (final) return 1;
    double now = util_now_s();
    if (p->fd >= 0 && (p->last_stats < 0 || now - p->last_stats >= 1.0)) return 1;
    return p->display != REPORT_DISPLAY_OFF && (p->last_show < 0 || now - p->last_show >= 0.25);
}

void report_progress_update(report_progress *p, const report_sample *r, const char *target, int final)
{
    if (!p) return;
    double now = util_now_s();
    if (p->fd >= 0 && (final || p->last_stats < 0 || now - p->last_stats >= 1.0)) {
        char line[512];
        size_t n = report_stats_format(r, line, sizeof line);
        if (n) {
            ssize_t w = write(p->fd, line, n); /* one write per line: O_APPEND keeps lines whole */
            if (w != (ssize_t)n) p->stats_failed = 1;
        }
        p->last_stats = now;
    }
    if (p->display == REPORT_DISPLAY_OFF) return;
    if (!final && p->last_show >= 0 && now - p->last_show < 0.25) return;
    p->last_show = now;
    if (p->display == REPORT_DISPLAY_LINE)
        show_line(p, r, final);
    else
        show_screen(p, r, target);
}

void report_progress_note(report_progress *p, const char *msg)
{
    if (!p || p->display != REPORT_DISPLAY_SCREEN) {
        if (p && p->line_shown) write_all(2, "\r\033[K", 4);
        if (p) p->line_shown = 0;
        write_all(2, msg, strlen(msg));
        write_all(2, "\n", 1);
        return;
    }
    char **nn = realloc(p->notes, (p->nnotes + 1) * sizeof *nn);
    if (!nn) return;
    p->notes = nn;
    char *copy = strdup(msg);
    if (copy) p->notes[p->nnotes++] = copy;
    p->last_show = -1; /* shown at the next update */
}

int report_progress_stats_failed(const report_progress *p) { return p ? p->stats_failed : 0; }

void report_progress_close(report_progress *p)
{
    if (!p) return;
    if (p->display == REPORT_DISPLAY_SCREEN) {
        if (screen_active) write_all(2, screen_leave, sizeof screen_leave - 1);
        screen_active = 0;
        unwrap_signals();
        for (size_t i = 0; i < p->nnotes; i++) {
            write_all(2, p->notes[i], strlen(p->notes[i]));
            write_all(2, "\n", 1);
        }
    } else if (p->display == REPORT_DISPLAY_LINE && p->line_shown) {
        write_all(2, "\n", 1);
    }
    for (size_t i = 0; i < p->nnotes; i++) free(p->notes[i]);
    free(p->notes);
    if (p->fd >= 0) close(p->fd);
    free(p->title);
    free(p);
}
