-- GIN twins for FerretDB's indexes on PostgreSQL (installed by the docdb
-- launcher at every start; idempotent).
--
-- Why: FerretDB 1.24 pushes a top-level equality down to SQL as
--   _jsonb -> 'field' @> '<value>'
-- but the indexes it creates are B-trees on (_jsonb -> 'field'), which cannot
-- serve @>. A GIN index on the same expression with jsonb_path_ops can, so
-- for every B-tree index FerretDB creates on a collection table we create a
-- GIN index on each of its top-level fields that is looked up by equality
-- (wants_twin below; dotted paths are skipped: they are pushed down as #>,
-- not ->). The planner must see the field name as a constant, hence
-- plan_cache_mode = force_custom_plan on FerretDB's connections (the launcher
-- sets it in the connection URL).
--
-- FerretDB never sees these indexes (it lists indexes from its own metadata),
-- so listIndexes answers as on MongoDB. They go away with their table.

CREATE SCHEMA IF NOT EXISTS docdb_gin;

-- Index name: <table>_<field> cut to fit, plus a hash of both so that two
-- long names never collide; at most 50 + 1 + 8 + 4 = 63 characters
-- (PostgreSQL's limit).
CREATE OR REPLACE FUNCTION docdb_gin.index_name(tbl text, field text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT left(tbl || '_' || regexp_replace(lower(field), '[^a-z0-9_]', '_', 'g'), 50)
      || '_' || left(md5(tbl || '.' || field), 8) || '_gin'
$$;

-- The top-level field a B-tree index column is on, or NULL: the column's
-- expression must be exactly ((_jsonb -> 'field'::text)), as pg_get_indexdef
-- prints it.
CREATE OR REPLACE FUNCTION docdb_gin.top_level_field(expr text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT replace(m[1], '''''', '''')
    FROM regexp_match(expr, '^\(*_jsonb -> ''((?:[^'']|'''')*)''::text\)*$') AS m
$$;

-- Whether a field's equality lookups need a twin. Not _id: the patched
-- FerretDB compares _id with =, which its unique B-tree index on
-- (_jsonb -> '_id') serves (ferretdb-v1.24.0.patch). Not a field named *_at:
-- by the services' convention it holds a time, which they compare by range,
-- sort on, or test for null, none of which reaches SQL as @>. A twin nothing
-- reads is one more index for every insert and update to maintain.
CREATE OR REPLACE FUNCTION docdb_gin.wants_twin(field text) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$
  SELECT field <> '_id' AND field !~ '_at$'
$$;

-- Creates the missing GIN twins of one index; returns how many it created.
-- Anything that is not a B-tree index on a FerretDB collection table (a
-- table with a _jsonb column, not FerretDB's own _ferretdb_* tables) is
-- ignored, which also keeps our own GIN indexes from recursing.
CREATE OR REPLACE FUNCTION docdb_gin.create_twins(idx oid) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  tbl oid;
  nsp text;
  rel text;
  ncols int;
  k int;
  field text;
  made int := 0;
BEGIN
  SELECT i.indrelid, n.nspname, c.relname, i.indnatts
    INTO tbl, nsp, rel, ncols
    FROM pg_index i
    JOIN pg_class ic ON ic.oid = i.indexrelid
    JOIN pg_am am ON am.oid = ic.relam
    JOIN pg_class c ON c.oid = i.indrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
   WHERE i.indexrelid = idx AND am.amname = 'btree' AND c.relname NOT LIKE '\_ferretdb\_%';
  IF tbl IS NULL OR NOT EXISTS (
    SELECT 1 FROM pg_attribute WHERE attrelid = tbl AND attname = '_jsonb' AND NOT attisdropped
  ) THEN
    RETURN 0;
  END IF;

  FOR k IN 1 .. ncols LOOP
    field := docdb_gin.top_level_field(pg_get_indexdef(idx, k, false));
    CONTINUE WHEN field IS NULL OR NOT docdb_gin.wants_twin(field);
    -- One GIN index per (table, field), whatever it is called: two B-tree
    -- indexes on the same field, or a renamed collection, reuse it.
    CONTINUE WHEN EXISTS (
      SELECT 1
        FROM pg_index gi
        JOIN pg_class gc ON gc.oid = gi.indexrelid
        JOIN pg_am gam ON gam.oid = gc.relam
       WHERE gi.indrelid = tbl AND gam.amname = 'gin' AND gi.indnatts = 1
         AND docdb_gin.top_level_field(pg_get_indexdef(gi.indexrelid, 1, false)) = field
    );
    -- fastupdate = off: with GIN's default pending list, recent inserts are
    -- searched linearly (milliseconds at a few thousand documents) and the
    -- planner, pricing that in, prefers a sequential scan.
    EXECUTE format(
      'CREATE INDEX IF NOT EXISTS %I ON %I.%I USING gin ((_jsonb -> %L) jsonb_path_ops) WITH (fastupdate = off)',
      docdb_gin.index_name(rel, field), nsp, rel, field
    );
    made := made + 1;
  END LOOP;
  RETURN made;
END
$$;

-- Event trigger body: every index created in this command gets its twins.
CREATE OR REPLACE FUNCTION docdb_gin.on_create_index() RETURNS event_trigger
LANGUAGE plpgsql AS $$
DECLARE
  cmd record;
BEGIN
  FOR cmd IN SELECT objid FROM pg_event_trigger_ddl_commands() WHERE object_type = 'index' LOOP
    PERFORM docdb_gin.create_twins(cmd.objid);
  END LOOP;
END
$$;

-- Twins for every index that exists already (created before this trigger, or
-- while the launcher was not the one connected).
CREATE OR REPLACE FUNCTION docdb_gin.backfill() RETURNS integer
LANGUAGE sql AS $$
  SELECT coalesce(sum(docdb_gin.create_twins(indexrelid)), 0)::int FROM pg_index
$$;

-- Twins made before wants_twin said no to their field.
DO $$
DECLARE
  twin record;
BEGIN
  FOR twin IN
    SELECT n.nspname, ic.relname
      FROM pg_index gi
      JOIN pg_class ic ON ic.oid = gi.indexrelid
      JOIN pg_am gam ON gam.oid = ic.relam
      JOIN pg_namespace n ON n.oid = ic.relnamespace
     WHERE gam.amname = 'gin' AND gi.indnatts = 1 AND ic.relname LIKE '%\_gin'
       AND NOT docdb_gin.wants_twin(docdb_gin.top_level_field(pg_get_indexdef(gi.indexrelid, 1, false)))
  LOOP
    EXECUTE format('DROP INDEX IF EXISTS %I.%I', twin.nspname, twin.relname);
  END LOOP;
END
$$;

DROP EVENT TRIGGER IF EXISTS docdb_gin_twins;
CREATE EVENT TRIGGER docdb_gin_twins ON ddl_command_end
  WHEN TAG IN ('CREATE INDEX')
  EXECUTE FUNCTION docdb_gin.on_create_index();
