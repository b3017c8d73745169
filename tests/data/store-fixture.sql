-- A small store written by hand for the history and show tests
-- (tests/t41*.sh): two runs, three cases, an observation, an inference and a
-- validation with one mismatch. Load after db/schema.sql:
--     sqlite3 x.db < db/schema.sql && sqlite3 x.db < tests/data/store-fixture.sql
-- Words: 15360 = 0x3c00 (f16 1.0), 1065353216 = 0x3f800000 (f32 1.0),
-- 2143289344 = 0x7fc00000, 2147483647 = 0x7fffffff, 4294967295 = 0xffffffff.
PRAGMA application_id = 1279345746;
PRAGMA user_version = 7;
INSERT INTO devices (id, kind, name, uuid, cc, driver, toolkit) VALUES
  (1, 'cuda', 'NVIDIA H100 80GB HBM3', 'GPU-aaaa', 90, '580.65', '13.0'),
  (2, 'sim', 'sm100-tcgen05-e4m3-f32', '', 0, '', '');
INSERT INTO builds (id, version, git_commit, dirty) VALUES (1, '0.1.0', 'abcdef123456', 0);
INSERT INTO recipes (id, sha256, text) VALUES (1, 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad', 'abc');
INSERT INTO runs (id, status, started, ended, command, argv, host, pid, pid_start, device_id, build_id, recipe_id, recipe_path, datapath, arch, instr, kind, shape, sass, sass_expected, fmt_a, fmt_b, fmt_c, fmt_d) VALUES
  (1, 'ok', 1750000000, 1750000042, 'run', '["ladder","run","recipes/sm90-mma-f16.yaml"]', 'gpuhost', 4242, 0, 1, 1, 1, 'recipes/sm90-mma-f16.yaml', 'sm90-mma-f16-f32', 'sm_90a', 'mma.sync', '', 'm16n8k16', 'HMMA.16816.F32', 'HMMA.16816.F32', 'f16', 'f16', 'f32', 'f32'),
  (2, 'failed', 1750000100, 1750000101, 'run', '["ladder","run","--device","sim:x"]', 'gpuhost', 4243, 0, 2, 1, NULL, '', 'sm100-tcgen05-e4m3-f32', 'sm_100a', 'tcgen05.mma', 'f8f6f4', 'm128n8k32', '', 'UTCQMMA', 'e4m3', 'e4m3', 'f32', 'f32');
UPDATE runs SET message = 'device lost' WHERE id = 2;
INSERT INTO rungs (id, run_id, name) VALUES (1, 1, 'visible'), (2, 1, 'window');
INSERT INTO cases (id, run_id, rung, label, k, a, b, c, d) VALUES
  (1, 1, 'visible', 'j=0', 4, '[15360,0,0,0]', '[15360,0,0,0]', 0, 1065353216),
  (2, 1, 'visible', 'j=1', 4, '[15360,4294967295,0,0]', '[15360,15360,0,0]', 2143289344, 2147483647),
  (3, 1, 'window', 'f=25', 4, '[1,2,3,4]', '[5,6,7,8]', 0, 0);
INSERT INTO observations (id, run_id, rung, key, value) VALUES (1, 1, 'visible', 'last_j', '23');
INSERT INTO observation_cases VALUES (1, 1), (1, 2);
INSERT INTO inferences (id, run_id, parameter, value, method, created) VALUES (1, 1, 'window', '25', 'last visible j', 1750000050);
INSERT INTO inference_cases VALUES (1, 2), (1, 3);
INSERT INTO validations (id, run_id, model, generator, seed, k, nscale, nmeta, cases, mismatches, started, ended) VALUES
  (1, 1, 'sm90-mma-f16-f32', 'random', -1, 2, 0, 0, 1000, 1, 1750000060, 1750000061);
INSERT INTO mismatches (validation_id, seq, a, b, c, expected, got) VALUES
  (1, 17, '[15360,1]', '[15360,2]', 0, 1065353216, 1065353217);
