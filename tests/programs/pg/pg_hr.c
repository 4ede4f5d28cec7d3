/* pg_hr.c: an HR report on PostgreSQL (bench/db.sh): managers by a self LEFT JOIN, payroll per department (numeric, COALESCE(SUM)), top overloaded staff (GROUP BY, HAVING, ORDER BY SUM DESC LIMIT 3), new hires by date_trunc of a timestamptz, NOT EXISTS over a composite key, a DELETE that cascades. */
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static PGconn *conn;

static PGresult *query(const char *sql)
{
    PGresult *r = PQexec(conn, sql);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        fprintf(stderr, "query failed: %s", PQerrorMessage(conn));
        PQclear(r);
        return NULL;
    }
    return r;
}

static void managers(void)
{
    PGresult *r = query("SELECT e.name, m.name, e.salary, m.salary FROM employees e "
                        "LEFT JOIN employees m ON m.id = e.manager_id WHERE e.active ORDER BY e.id");
    if (!r) return;
    for (int i = 0; i < PQntuples(r); i++) {
        if (PQgetisnull(r, i, 1)) {
            printf("%s reports to nobody\n", PQgetvalue(r, i, 0));
            continue;
        }
        if (atof(PQgetvalue(r, i, 2)) > atof(PQgetvalue(r, i, 3)))
            printf("%s earns more than %s\n", PQgetvalue(r, i, 0), PQgetvalue(r, i, 1));
    }
    PQclear(r);
}

static void payroll(void)
{
    PGresult *r = query("SELECT d.name, d.budget, COALESCE(SUM(e.salary), 0) AS total, COUNT(e.id) FROM departments d "
                        "LEFT JOIN employees e ON e.dept_id = d.id AND e.active GROUP BY d.id, d.name, d.budget "
                        "ORDER BY d.name");
    if (!r) return;
    for (int i = 0; i < PQntuples(r); i++) {
        double budget = atof(PQgetvalue(r, i, 1));
        double total = atof(PQgetvalue(r, i, 2));
        int heads = atoi(PQgetvalue(r, i, 3));
        if (heads == 0)
            printf("%s is empty\n", PQgetvalue(r, i, 0));
        else if (total > budget)
            printf("%s is over budget\n", PQgetvalue(r, i, 0));
    }
    PQclear(r);
}

static void overloaded(void)
{
    PGresult *r = query("SELECT e.name, SUM(a.hours) FROM employees e JOIN assignments a ON a.emp_id = e.id "
                        "GROUP BY e.id, e.name HAVING SUM(a.hours) > 40 ORDER BY SUM(a.hours) DESC LIMIT 3");
    if (!r) return;
    if (PQntuples(r) == 0) printf("nobody is overloaded\n");
    for (int i = 0; i < PQntuples(r); i++) printf("%s works %s hours\n", PQgetvalue(r, i, 0), PQgetvalue(r, i, 1));
    PQclear(r);
}

static void new_hires(void)
{
    PGresult *r = query("SELECT name, date_trunc('month', hired_at) FROM employees "
                        "WHERE hired_at >= '2024-01-01' ORDER BY hired_at DESC");
    if (!r) return;
    for (int i = 0; i < PQntuples(r); i++) {
        const char *month = PQgetvalue(r, i, 1);
        if (strncmp(month, "2024-12", 7) == 0) printf("%s joined in December\n", PQgetvalue(r, i, 0));
    }
    PQclear(r);
}

static void idle_projects(void)
{
    PGresult *r = query("SELECT p.code, p.title FROM projects p WHERE NOT EXISTS "
                        "(SELECT 1 FROM assignments a WHERE a.dept_id = p.dept_id AND a.code = p.code)");
    if (!r) return;
    for (int i = 0; i < PQntuples(r); i++) printf("project %s has nobody\n", PQgetvalue(r, i, 0));
    PQclear(r);
}

static void close_department(const char *name)
{
    const char *params[1] = {name};
    PGresult *r = PQexecParams(conn, "DELETE FROM departments WHERE name = $1", 1, NULL, params, NULL, NULL, 0);
    if (PQresultStatus(r) != PGRES_COMMAND_OK)
        printf("delete failed\n");
    else if (strcmp(PQcmdTuples(r), "0") != 0) {
        PGresult *c = query("SELECT COUNT(*) FROM employees");
        if (c && atoi(PQgetvalue(c, 0, 0)) == 0) printf("no employees left\n");
        if (c) PQclear(c);
    }
    PQclear(r);
}

int main(void)
{
    conn = PQconnectdb("dbname=shop");
    if (PQstatus(conn) != CONNECTION_OK) {
        fprintf(stderr, "connection: %s", PQerrorMessage(conn));
        PQfinish(conn);
        return 1;
    }
    managers();
    payroll();
    overloaded();
    new_hires();
    idle_projects();
    close_department("legal");
    PQfinish(conn);
    return 0;
}
