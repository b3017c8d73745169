-- The cases of one rung of a run, with the nonzero lanes of A and B spelled
-- out (most probe cases vary one lane): what the rung saw, word by word.
-- Usage: sqlite3 ladder.db -cmd '.parameter set :run 1' -cmd ".parameter set :rung 'visible'" < docs/queries/rung-cases.sql
SELECT c.id AS case_id,
       c.label,
       (SELECT group_concat(lane, ' ')
          FROM (SELECT w.operand || w.k || '=' || printf('%08x', w.word) AS lane
                  FROM case_words AS w
                 WHERE w.case_id = c.id AND w.word <> 0
                 ORDER BY w.operand, w.k)) AS nonzero_lanes,
       printf('%08x', c.c) AS c,
       printf('%08x', c.d) AS d
  FROM cases AS c
 WHERE c.run_id = :run AND c.rung = :rung
 ORDER BY c.id;
