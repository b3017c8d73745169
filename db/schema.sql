-- Ladder evidence store, schema version 7 (PRAGMA user_version = 7,
-- PRAGMA application_id = 0x4c414452 "LADR"). See docs/store.md.
--
-- Raw words (A, B, C, D, scales, metadata) are integers: C and D are INTEGER
-- columns; A and B are JSON arrays of integers, one per lane in logical K
-- order, and the view case_words shows them one row per lane. Times are unix
-- seconds. Text columns hold '' rather than NULL where a value is unknown,
-- except where NULL says "not yet" (ended, counts of an open validation).

CREATE TABLE devices (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,          -- sim, exec, cuda
    name TEXT NOT NULL,          -- GPU name, model name or command line
    uuid TEXT NOT NULL,          -- GPU UUID, '' elsewhere
    cc INTEGER NOT NULL,         -- compute capability * 10 (90 = 9.0), 0 elsewhere
    driver TEXT NOT NULL,
    toolkit TEXT NOT NULL,
    UNIQUE (kind, name, uuid, cc, driver, toolkit)
) STRICT;

CREATE TABLE builds (
    id INTEGER PRIMARY KEY,
    version TEXT NOT NULL,       -- ladder version
    git_commit TEXT NOT NULL,
    dirty INTEGER NOT NULL CHECK (dirty IN (0, 1)),
    UNIQUE (version, git_commit, dirty)
) STRICT;

CREATE TABLE recipes (
    id INTEGER PRIMARY KEY,
    sha256 TEXT NOT NULL UNIQUE, -- of text, lowercase hex
    text TEXT NOT NULL           -- the full recipe
) STRICT;

CREATE TABLE runs (
    id INTEGER PRIMARY KEY,
    status TEXT NOT NULL CHECK (status IN ('running', 'ok', 'failed', 'interrupted')),
    started INTEGER NOT NULL,
    ended INTEGER,               -- NULL until ended
    command TEXT NOT NULL,       -- subcommand: run, check, ...
    argv TEXT NOT NULL CHECK (json_valid(argv)), -- JSON array of strings
    host TEXT NOT NULL,
    pid INTEGER NOT NULL,
    pid_start INTEGER NOT NULL,  -- process start time (clock ticks since boot), 0 unknown
    message TEXT NOT NULL DEFAULT '', -- error of a failed run
    device_id INTEGER REFERENCES devices(id),
    build_id INTEGER NOT NULL REFERENCES builds(id),
    recipe_id INTEGER REFERENCES recipes(id),
    recipe_path TEXT NOT NULL,
    datapath TEXT NOT NULL,      -- datapath (preset) name
    arch TEXT NOT NULL,
    instr TEXT NOT NULL,         -- mma.sync, wgmma, tcgen05.mma
    kind TEXT NOT NULL,          -- tcgen05 kind, ''
    shape TEXT NOT NULL,
    sass TEXT NOT NULL,          -- tensor opcode actually executed, '' unknown
    sass_expected TEXT NOT NULL, -- the datapath's opcode
    fmt_a TEXT NOT NULL,
    fmt_b TEXT NOT NULL,
    fmt_c TEXT NOT NULL,
    fmt_d TEXT NOT NULL,
    device_spec TEXT NOT NULL DEFAULT '',  -- the device as given: sim:m.yaml, cuda:0
    model_file TEXT NOT NULL DEFAULT '',   -- sim: the model file's absolute path, '' for a preset
    model_sha256 TEXT NOT NULL DEFAULT ''  -- sha256 of that file's text when the run began
) STRICT;

CREATE INDEX runs_status ON runs (status);

-- The rungs of a run, in the order the run first wrote to them.
CREATE TABLE rungs (
    id INTEGER PRIMARY KEY,
    run_id INTEGER NOT NULL REFERENCES runs(id),
    name TEXT NOT NULL,
    UNIQUE (run_id, name)
) STRICT;

-- One dot product a device answered.
CREATE TABLE cases (
    id INTEGER PRIMARY KEY,
    run_id INTEGER NOT NULL,
    rung TEXT NOT NULL,
    label TEXT NOT NULL,         -- what the probe varied, for people: 'j=23'
    k INTEGER NOT NULL CHECK (k BETWEEN 0 AND 128),
    a TEXT NOT NULL CHECK (json_valid(a)), -- JSON array of k integers
    b TEXT NOT NULL CHECK (json_valid(b)),
    c INTEGER NOT NULL,
    d INTEGER NOT NULL,
    sa TEXT NOT NULL DEFAULT '[]', -- JSON arrays: scale bytes of A and B,
    sb TEXT NOT NULL DEFAULT '[]', -- metadata words; '[]' when unscaled/dense
    meta TEXT NOT NULL DEFAULT '[]',
    -- Structured evidence (docs/store.md), last so that a store migrated
    -- from schema 1 has the same columns in the same order:
    series TEXT,                 -- the family of cases within the rung ('a-code',
                                 -- 'floor'); NULL: not known (an older run)
    target TEXT,                 -- model-file keys the series is designed to
                                 -- decide, space-separated ('window align_round')
    vary INTEGER,                -- the value the series varies in this case (a
                                 -- code word, a bit index, an exponent); NULL: none
    FOREIGN KEY (run_id, rung) REFERENCES rungs(run_id, name)
) STRICT;

CREATE INDEX cases_run_rung ON cases (run_id, rung);
CREATE INDEX cases_run_series ON cases (run_id, series);

-- The A and B words one row per lane: case_id, operand ('a' or 'b'), lane k
-- (0-based, logical K order), word.
CREATE VIEW case_words (case_id, operand, k, word) AS
    SELECT cases.id, 'a', j.key, j.value FROM cases, json_each(cases.a) AS j
    UNION ALL
    SELECT cases.id, 'b', j.key, j.value FROM cases, json_each(cases.b) AS j;

-- What a rung observed (key = value) and the cases that show it.
CREATE TABLE observations (
    id INTEGER PRIMARY KEY,
    run_id INTEGER NOT NULL,
    rung TEXT NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    FOREIGN KEY (run_id, rung) REFERENCES rungs(run_id, name)
) STRICT;

CREATE INDEX observations_run ON observations (run_id);

CREATE TABLE observation_cases (
    observation_id INTEGER NOT NULL REFERENCES observations(id) ON DELETE CASCADE,
    case_id INTEGER NOT NULL REFERENCES cases(id),
    PRIMARY KEY (observation_id, case_id)
) STRICT, WITHOUT ROWID;

-- Parameters inferred from a run's cases.
CREATE TABLE inferences (
    id INTEGER PRIMARY KEY,
    run_id INTEGER NOT NULL REFERENCES runs(id),
    parameter TEXT NOT NULL,     -- datapath field: window, align_round, ...
    value TEXT NOT NULL,
    method TEXT NOT NULL,        -- how it was decided
    created INTEGER NOT NULL
) STRICT;

CREATE INDEX inferences_run ON inferences (run_id);

CREATE TABLE inference_cases (
    inference_id INTEGER NOT NULL REFERENCES inferences(id) ON DELETE CASCADE,
    case_id INTEGER NOT NULL REFERENCES cases(id),
    PRIMARY KEY (inference_id, case_id)
) STRICT, WITHOUT ROWID;

-- A model checked against a device on generated cases: counts only, plus
-- every mismatch stored in mismatches.
CREATE TABLE validations (
    id INTEGER PRIMARY KEY,
    run_id INTEGER NOT NULL REFERENCES runs(id),
    model TEXT NOT NULL,         -- preset name or model file
    generator TEXT NOT NULL,     -- how cases were drawn
    seed INTEGER NOT NULL,       -- 64-bit seed, as a signed integer
    k INTEGER NOT NULL CHECK (k BETWEEN 0 AND 128), -- words of A and B per mismatch
    nscale INTEGER NOT NULL,     -- scales of A and B per mismatch
    nmeta INTEGER NOT NULL,      -- metadata words per mismatch
    cases INTEGER,               -- compared and committed so far (NULL: an
                                 -- unfinished validation before schema 5)
    mismatches INTEGER,          -- counted among those cases
    started INTEGER NOT NULL,
    ended INTEGER,
    status TEXT NOT NULL DEFAULT 'ok'
        CHECK (status IN ('running', 'ok', 'failed', 'interrupted')),
    planned INTEGER,             -- cases asked for, NULL before schema 5
    host TEXT NOT NULL DEFAULT '', -- the validating process, so that a dead
    pid INTEGER NOT NULL DEFAULT 0, -- one's validation reads as interrupted
    pid_start INTEGER NOT NULL DEFAULT 0,
    message TEXT NOT NULL DEFAULT '', -- why it failed or stopped
    -- A shard (validate --shard I/N) ran cases [I*S/N, (I+1)*S/N) of a stream
    -- of S cases; an unsharded validation is shard 0 of 1.
    shard_index INTEGER NOT NULL DEFAULT 0,
    shard_count INTEGER NOT NULL DEFAULT 1,
    stream_cases INTEGER         -- S; NULL before schema 6 (then S = cases)
) STRICT;

CREATE INDEX validations_run ON validations (run_id);

CREATE TABLE mismatches (
    id INTEGER PRIMARY KEY,
    validation_id INTEGER NOT NULL REFERENCES validations(id),
    seq INTEGER NOT NULL,        -- index of the case in the validation, -1 unknown
    a TEXT NOT NULL CHECK (json_valid(a)),
    b TEXT NOT NULL CHECK (json_valid(b)),
    c INTEGER NOT NULL,
    sa TEXT NOT NULL DEFAULT '[]',
    sb TEXT NOT NULL DEFAULT '[]',
    meta TEXT NOT NULL DEFAULT '[]',
    expected INTEGER NOT NULL,   -- the model's D word
    got INTEGER NOT NULL         -- the device's D word
) STRICT;

CREATE INDEX mismatches_validation ON mismatches (validation_id);

-- A survey (ladder survey): every datapath of one device's generation
-- climbed, inferred, validated and compared with its preset. One row per
-- survey; survey_datapaths holds one row per datapath finished (or failed),
-- which is what --resume skips.
CREATE TABLE surveys (
    id INTEGER PRIMARY KEY,
    status TEXT NOT NULL CHECK (status IN ('running', 'ok', 'failed')),
    started INTEGER NOT NULL,
    ended INTEGER,               -- NULL until ended
    device TEXT NOT NULL,        -- the --device given: cuda:0, sim:sm_90a
    arch TEXT NOT NULL,          -- the generation surveyed: sm_90a
    only TEXT NOT NULL,          -- the --only pattern, '' for every datapath
    cases INTEGER NOT NULL,      -- random cases per validation
    gpu TEXT NOT NULL,           -- GPU name, '' on a simulated device
    uuid TEXT NOT NULL,
    cc INTEGER NOT NULL,         -- compute capability * 10, 0 simulated
    driver TEXT NOT NULL,
    toolkit TEXT NOT NULL,
    sms INTEGER NOT NULL,        -- multiprocessors, 0 unknown
    clock_khz INTEGER NOT NULL,  -- SM clock, 0 unknown
    mem_clock_khz INTEGER NOT NULL, -- memory clock, 0 unknown
    result TEXT CHECK (result IS NULL OR json_valid(result)), -- the table as JSON, once ended
    -- survey --shard I/N surveys the datapaths i with i % N = I.
    shard_index INTEGER NOT NULL DEFAULT 0,
    shard_count INTEGER NOT NULL DEFAULT 1,
    -- The datapaths planned, and the process surveying: a 'running'
    -- survey whose process is gone reads as interrupted.
    planned INTEGER NOT NULL DEFAULT 0,
    host TEXT NOT NULL DEFAULT '',
    pid INTEGER NOT NULL DEFAULT 0,
    pid_start INTEGER NOT NULL DEFAULT 0
) STRICT;

CREATE TABLE survey_datapaths (
    survey_id INTEGER NOT NULL REFERENCES surveys(id),
    datapath TEXT NOT NULL,      -- preset name
    status TEXT NOT NULL CHECK (status IN ('done', 'failed')),
    run_id INTEGER REFERENCES runs(id), -- the ladder's run, NULL if none began
    probes INTEGER NOT NULL,     -- targeted cases the ladder ran
    differ TEXT NOT NULL,        -- the inferred model against the preset:
                                 -- '' =; 'EQUIV KEYS' equivalent (EQUIV the
                                 -- sign U+2261), 'KEYS' differs; '-' not inferred
    inferred_cases INTEGER NOT NULL,      -- validation of the inferred model
    inferred_mismatches INTEGER NOT NULL, -- (-1: not run)
    preset_cases INTEGER NOT NULL,        -- validation of the preset
    preset_mismatches INTEGER NOT NULL,
    vector_files INTEGER NOT NULL,        -- captured vector files replayed
    vector_cases INTEGER NOT NULL,
    vector_mismatches INTEGER NOT NULL,
    millis INTEGER NOT NULL,     -- wall time of the datapath
    message TEXT NOT NULL,       -- what failed, ''
    PRIMARY KEY (survey_id, datapath)
) STRICT;

-- The parts `ladder merge` combined: one row per shard of a merged
-- validation or survey. The merged row belongs to the merge's own run; each
-- part's runs were copied with their devices and builds.
CREATE TABLE merge_parts (
    id INTEGER PRIMARY KEY,
    merge_run INTEGER NOT NULL REFERENCES runs(id),  -- the merge's run
    validation_id INTEGER REFERENCES validations(id), -- the merged validation,
    survey_id INTEGER REFERENCES surveys(id),         -- or survey (one is set)
    source TEXT NOT NULL,        -- the shard's file, as given to merge
    source_id INTEGER NOT NULL,  -- the validation's or survey's id there
    run_id INTEGER REFERENCES runs(id), -- the part's run as copied (validations)
    shard_index INTEGER NOT NULL,
    shard_count INTEGER NOT NULL,
    cases INTEGER NOT NULL,      -- the part's cases (of a survey: datapaths)
    mismatches INTEGER NOT NULL  -- its mismatches (of a survey: datapaths not ok)
) STRICT;
