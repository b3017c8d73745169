-- What did each survey find? One row per datapath of every survey: whether
-- the inferred model equals the preset (the parameters that differ
-- otherwise), the mismatches of both validations and of the vector
-- replays, and the run that holds the evidence.
-- Usage: sqlite3 -header -column ladder.db < docs/queries/survey-results.sql
SELECT s.id AS survey,
       s.device,
       CASE s.gpu WHEN '' THEN '-' ELSE s.gpu END AS gpu,
       sd.datapath,
       sd.status,
       CASE sd.differ WHEN '' THEN '= preset' ELSE 'differs: ' || sd.differ END AS inferred,
       sd.inferred_mismatches || '/' || sd.inferred_cases AS validate_inferred,
       sd.preset_mismatches || '/' || sd.preset_cases AS validate_preset,
       sd.vector_mismatches || '/' || sd.vector_cases AS vectors,
       sd.run_id AS run
  FROM surveys AS s
  JOIN survey_datapaths AS sd ON sd.survey_id = s.id
 ORDER BY s.id, sd.rowid;
