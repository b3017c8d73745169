-- The cases of a run by rung, series and what each series is designed to
-- decide, with the range of the value it varies: which evidence stands
-- behind each parameter, without reading labels.
-- Usage: sqlite3 -header ladder.db -cmd '.parameter set :run 1' < docs/queries/series.sql
SELECT c.rung,
       coalesce(c.series, '-') AS series,
       coalesce(c.target, '-') AS target,
       count(*) AS cases,
       min(c.vary) AS vary_min,
       max(c.vary) AS vary_max
  FROM cases AS c
 WHERE c.run_id = :run
 GROUP BY c.rung, c.series, c.target
 ORDER BY min(c.id);
