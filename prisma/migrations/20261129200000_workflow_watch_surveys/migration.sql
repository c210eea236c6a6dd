-- A workflow whose audience reads a survey's answers now watches them (`survey:<message id>`): its
-- audience is read again when the person answers. The versions published before are given theirs,
-- as publishing adds each version's.
INSERT INTO workflow_watch (app_mode_id, name, workflow_id)
SELECT DISTINCT v.app_mode_id, 'survey:' || (s #>> '{}'), v.workflow_id
FROM workflow_version v
CROSS JOIN LATERAL jsonb_path_query(v.definition -> 'trigger' -> 'audience', 'lax $.**.survey') s
WHERE v.definition -> 'trigger' ->> 'kind' = 'audience_entered' AND jsonb_typeof(s) = 'string'
ON CONFLICT DO NOTHING;
