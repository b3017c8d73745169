-- How wide is the accumulator of every fp8 path measured? For each run
-- whose A or B format is an 8-bit-or-narrower float (e4m3, e5m2, e3m2,
-- e2m3, e2m1), the newest inferred window (fraction bits kept below the
-- anchor), pass result format (acc) and result format (d), with the device.
-- Usage: sqlite3 -header -column ladder.db < docs/queries/fp8-accumulators.sql
WITH newest AS (
    SELECT i.run_id, i.parameter, i.value
      FROM inferences AS i
     WHERE i.id = (SELECT max(j.id) FROM inferences AS j
                    WHERE j.run_id = i.run_id AND j.parameter = i.parameter)
)
SELECT r.id AS run,
       d.name AS device,
       r.arch,
       r.datapath,
       r.fmt_a || 'x' || r.fmt_b AS ab,
       (SELECT value FROM newest WHERE run_id = r.id AND parameter = 'window') AS window,
       (SELECT value FROM newest WHERE run_id = r.id AND parameter = 'acc') AS acc,
       (SELECT value FROM newest WHERE run_id = r.id AND parameter = 'd') AS d
  FROM runs AS r
  LEFT JOIN devices AS d ON d.id = r.device_id
 WHERE (r.fmt_a IN ('e4m3', 'e5m2', 'e3m2', 'e2m3', 'e2m1')
        OR r.fmt_b IN ('e4m3', 'e5m2', 'e3m2', 'e2m3', 'e2m1'))
   AND EXISTS (SELECT 1 FROM newest WHERE run_id = r.id)
 ORDER BY r.arch, r.datapath, r.id;
