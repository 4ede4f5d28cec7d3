/* clinic.c: a small clinic's daily report (bench/db.sh): follow-ups by date(day, '+7 days'), busy months by GROUP BY strftime, free doctors by LEFT JOIN, REAL fees with round(), minors by a date and NOT IN, stale bookings cancelled. */
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

static sqlite3 *db;

static void followups(const char *today)
{
    sqlite3_stmt *st;
    const char *sql = "SELECT p.name, a.day, date(a.day, '+7 days') FROM appointments a "
                      "JOIN patients p ON p.id = a.patient_id "
                      "WHERE a.status = 'done' AND date(a.day, '+7 days') >= ? ORDER BY a.day LIMIT 5";
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
        fprintf(stderr, "followups: %s\n", sqlite3_errmsg(db));
        return;
    }
    sqlite3_bind_text(st, 1, today, -1, SQLITE_STATIC);
    int n = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *next = (const char *)sqlite3_column_text(st, 2);
        if (next && strcmp(next, today) == 0) printf("call %s today\n", sqlite3_column_text(st, 0));
        n++;
    }
    if (n == 0) printf("no follow-ups\n");
    sqlite3_finalize(st);
}

static void busy_months(void)
{
    sqlite3_stmt *st;
    const char *sql = "SELECT strftime('%Y-%m', day) AS month, COUNT(*) FROM appointments "
                      "WHERE status <> 'cancelled' GROUP BY strftime('%Y-%m', day) HAVING COUNT(*) >= 2 ORDER BY month";
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) return;
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *month = (const char *)sqlite3_column_text(st, 0);
        int count = sqlite3_column_int(st, 1);
        if (count > 2)
            printf("%s was very busy (%d)\n", month, count);
        else
            printf("%s was busy\n", month);
    }
    sqlite3_finalize(st);
}

static void idle_doctors(void)
{
    sqlite3_stmt *st;
    const char *sql = "SELECT d.name, d.specialty, COUNT(a.id) FROM doctors d "
                      "LEFT JOIN appointments a ON a.doctor_id = d.id AND a.status = 'booked' "
                      "GROUP BY d.id ORDER BY d.name";
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) return;
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *spec = (const char *)sqlite3_column_text(st, 1);
        if (sqlite3_column_int(st, 2) == 0) {
            if (strcmp(spec, "cardio") == 0)
                printf("cardiologist %s is free\n", sqlite3_column_text(st, 0));
            else
                printf("%s is free\n", sqlite3_column_text(st, 0));
        }
    }
    sqlite3_finalize(st);
}

static void revenue(void)
{
    sqlite3_stmt *st;
    const char *sql = "SELECT round(SUM(fee), 2), MAX(fee) FROM appointments WHERE status = 'done'";
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) return;
    if (sqlite3_step(st) == SQLITE_ROW) {
        if (sqlite3_column_type(st, 0) == SQLITE_NULL)
            printf("no revenue yet\n");
        else {
            double total = sqlite3_column_double(st, 0);
            double top = sqlite3_column_double(st, 1);
            if (total > 500.0) printf("good month\n");
            if (top > 150.0) printf("an expensive visit\n");
        }
    }
    sqlite3_finalize(st);
}

static void minors(void)
{
    sqlite3_stmt *st;
    const char *sql = "SELECT name, phone FROM patients WHERE birth_date > date('now', '-18 years') "
                      "AND id NOT IN (SELECT patient_id FROM appointments WHERE status = 'cancelled')";
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) return;
    while (sqlite3_step(st) == SQLITE_ROW) {
        if (sqlite3_column_type(st, 1) == SQLITE_NULL)
            printf("minor %s has no phone\n", sqlite3_column_text(st, 0));
        else
            printf("minor %s\n", sqlite3_column_text(st, 0));
    }
    sqlite3_finalize(st);
}

static int cancel_old(const char *before)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "UPDATE appointments SET status = 'cancelled' WHERE status = 'booked' AND day < ?", -1,
                           &st, NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_text(st, 1, before, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) return -1;
    return sqlite3_changes(db);
}

int main(void)
{
    if (sqlite3_open("clinic.db", &db) != SQLITE_OK) {
        fprintf(stderr, "cannot open: %s\n", sqlite3_errmsg(db));
        sqlite3_close(db);
        return 1;
    }
    followups("2024-06-10");
    busy_months();
    idle_doctors();
    revenue();
    minors();
    int n = cancel_old("2024-01-01");
    if (n < 0)
        printf("cancel failed\n");
    else if (n > 0)
        printf("cancelled %d stale bookings\n", n);
    sqlite3_close(db);
    return 0;
}
