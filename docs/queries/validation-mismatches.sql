-- The mismatches of one validation: the case (A, B and C words), what the
-- model said and what the device said, with the bits that differ.
-- Usage: sqlite3 ladder.db -cmd '.parameter set :validation 1' < docs/queries/validation-mismatches.sql
SELECT v.model,
       m.seq,
       (SELECT group_concat(printf('%08x', j.value), ',') FROM json_each(m.a) AS j) AS a,
       (SELECT group_concat(printf('%08x', j.value), ',') FROM json_each(m.b) AS j) AS b,
       printf('%08x', m.c) AS c,
       printf('%08x', m.expected) AS expected,
       printf('%08x', m.got) AS got,
       printf('%08x', (m.expected | m.got) - (m.expected & m.got)) AS differ -- XOR
  FROM mismatches AS m JOIN validations AS v ON v.id = m.validation_id
 WHERE m.validation_id = :validation
 ORDER BY m.seq;
