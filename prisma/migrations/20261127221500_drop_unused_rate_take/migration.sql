-- crm_rate_take was replaced by crm_rate_grant (which grants slots in chunks) and nothing calls
-- it: dropped, so every function the migrations leave is one the service uses.
DROP FUNCTION IF EXISTS crm_rate_take(text[], int[], int, bigint);
