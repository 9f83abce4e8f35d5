// Forget, step 2 (at most $limit a transaction): the evidence nodes of the group's insights
// (not counted: they are part of their insight).
// params: group_id, limit
MATCH (e:InsightEvidence {group_id: $group_id})
WITH e LIMIT $limit
DELETE e
RETURN count(*) AS removed
