// Forget, step 8 (at most $limit a transaction): the group's entity name keys (not counted: they
// are part of their entity, as the receipt counts records).
// params: group_id, limit
MATCH (k:EntityKey {group_id: $group_id})
WITH k LIMIT $limit
DELETE k
RETURN count(*) AS removed
