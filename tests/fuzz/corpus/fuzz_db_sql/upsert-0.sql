INSERT INTO t(a, b, u) VALUES (?1, ?2, 'x') ON CONFLICT(u) DO UPDATE SET b = b + excluded.b WHERE t.b < 10 RETURNING b, (b > 1)::boolean
