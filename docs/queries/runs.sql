-- Every run with its device, build, datapath and what it stored: the same
-- facts as `ladder history`, from plain SQL.
-- Usage: sqlite3 -header -column ladder.db < docs/queries/runs.sql
SELECT r.id,
       r.status,
       datetime(r.started, 'unixepoch') AS started_utc,
       d.name AS device,
       d.cc,
       d.driver,
       b.git_commit || CASE b.dirty WHEN 1 THEN '+dirty' ELSE '' END AS build,
       r.datapath,
       r.sass,
       (SELECT count(*) FROM cases WHERE cases.run_id = r.id) AS cases
  FROM runs AS r
  LEFT JOIN devices AS d ON d.id = r.device_id
  JOIN builds AS b ON b.id = r.build_id
 ORDER BY r.id DESC;
