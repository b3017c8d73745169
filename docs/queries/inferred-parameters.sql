-- The parameters inferred from a run, each with the probe cases that
-- decided it (their labels and D words).
-- Usage: sqlite3 ladder.db -cmd '.parameter set :run 1' < docs/queries/inferred-parameters.sql
SELECT i.parameter,
       i.value,
       i.method,
       c.id AS case_id,
       c.rung,
       c.label,
       printf('%08x', c.d) AS d
  FROM inferences AS i
  JOIN inference_cases AS ic ON ic.inference_id = i.id
  JOIN cases AS c ON c.id = ic.case_id
 WHERE i.run_id = :run
 ORDER BY i.id, c.id;
