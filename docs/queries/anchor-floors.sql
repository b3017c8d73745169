-- Which GPUs floor the anchor? Every device on which a run inferred an
-- anchor floor: a lowest anchor exponent (anchor_min) or a raw exponent
-- that zero terms give the anchor (zero_floor), other than none, with the
-- datapaths and the values (the newest inference of each run).
-- Usage: sqlite3 -header -column ladder.db < docs/queries/anchor-floors.sql
WITH newest AS (
    SELECT i.run_id, i.parameter, i.value
      FROM inferences AS i
     WHERE i.parameter IN ('anchor_min', 'zero_floor')
       AND i.id = (SELECT max(j.id) FROM inferences AS j
                    WHERE j.run_id = i.run_id AND j.parameter = i.parameter)
)
SELECT d.kind,
       d.name AS device,
       r.arch,
       count(DISTINCT r.datapath) AS datapaths,
       group_concat(DISTINCT r.datapath || ' ' || n.parameter || ' ' || n.value) AS floors
  FROM newest AS n
  JOIN runs AS r ON r.id = n.run_id
  LEFT JOIN devices AS d ON d.id = r.device_id
 WHERE n.value <> 'none'
 GROUP BY d.id, r.arch
 ORDER BY r.arch, d.name;
