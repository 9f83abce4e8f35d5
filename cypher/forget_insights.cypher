// Forget, step 3 (at most $limit a transaction): the group's insight versions.
// params: group_id, limit
MATCH (i:Insight {group_id: $group_id})
WITH i LIMIT $limit
DETACH DELETE i
RETURN count(*) AS removed
