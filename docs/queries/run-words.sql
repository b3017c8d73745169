-- Every raw word of a run, one row per case: A and B lanes in hex, C and D.
-- Usage: sqlite3 ladder.db -cmd '.parameter set :run 1' < docs/queries/run-words.sql
-- (:run is a run id; for the newest run use (SELECT max(id) FROM runs)).
SELECT c.id AS case_id,
       c.rung,
       c.label,
       -- json_each walks an array in lane order (lane = j.key).
       (SELECT group_concat(printf('%08x', j.value), ',') FROM json_each(c.a) AS j) AS a,
       (SELECT group_concat(printf('%08x', j.value), ',') FROM json_each(c.b) AS j) AS b,
       printf('%08x', c.c) AS c,
       printf('%08x', c.d) AS d
  FROM cases AS c
 WHERE c.run_id = coalesce(:run, (SELECT max(id) FROM runs))
 ORDER BY c.id;
