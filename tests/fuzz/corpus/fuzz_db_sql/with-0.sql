WITH r AS (SELECT a, b FROM t WHERE a > ?) SELECT r.b FROM r JOIN t x ON x.a = r.b WHERE r.a < 3
