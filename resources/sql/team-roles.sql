-- SPDX-License-Identifier: Apache-2.0
-- LockScope's team database (docs/manual/team.md): the two roles, run once in the database by its
-- owner or a superuser:
--
--   createdb lockscope
--   psql -v ON_ERROR_STOP=1 -d lockscope -f /usr/share/lockscope/sql/team-roles.sql
--   psql -d lockscope -c "\password lockscope_owner" -c "\password lockscope_writer"
--
-- lockscope_owner owns LockScope's schema: connect with it once, and after each upgrade of
-- LockScope, to create or update its tables (`lockctl audit --team-db postgresql://lockscope_owner@…`).
-- lockscope_writer is what lockctl and the window use every day: it may read and add
-- audit records, never change or remove one.
CREATE ROLE lockscope_owner LOGIN;
CREATE ROLE lockscope_writer LOGIN;
CREATE SCHEMA lockscope AUTHORIZATION lockscope_owner;
GRANT USAGE ON SCHEMA lockscope TO lockscope_writer;
-- Every table the owner makes there: read and insert only. Sequences: to number new rows.
ALTER DEFAULT PRIVILEGES FOR ROLE lockscope_owner IN SCHEMA lockscope
    GRANT SELECT, INSERT ON TABLES TO lockscope_writer;
ALTER DEFAULT PRIVILEGES FOR ROLE lockscope_owner IN SCHEMA lockscope
    GRANT USAGE ON SEQUENCES TO lockscope_writer;
