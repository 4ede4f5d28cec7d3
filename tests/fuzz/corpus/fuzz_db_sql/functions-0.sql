SELECT replace(s, 'ab', 'cd'), instr(u, 'a'), CAST(a / 2.0 AS INTEGER) FROM t WHERE b >= (SELECT COALESCE(SUM(a * 2), 0) FROM t)
