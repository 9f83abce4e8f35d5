// Forget, step 4 (at most $limit a transaction): the group's entity summary versions.
// params: group_id, limit
MATCH (s:EntitySummary {group_id: $group_id})
WITH s LIMIT $limit
DELETE s
RETURN count(*) AS removed
