-- The statements waiting for their academy's LRS, in the order it receives them (features/lti/server/lrs-queries.ts
-- STATEMENT_ORDER_SQL): a delivery reads its next 50 from here, not every waiting statement sorted, and the academies
-- with statements waiting come from here. A statement marked sent leaves it (nothing is added to it by that update),
-- so it also replaces the (state, academy_id) index.
CREATE INDEX "xapi_statements_waiting_idx" ON "xapi_statements"("academy_id", "created_at", (CASE "verb" WHEN 'initialized' THEN 0 WHEN 'answered' THEN 1 ELSE 2 END), "id") WHERE "state" = 'waiting';
DROP INDEX "xapi_statements_state_academy_id_idx";
