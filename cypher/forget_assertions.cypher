// Forget, step 6 (at most $limit a transaction): the group's assertions.
// params: group_id, limit
MATCH (a:Assertion {group_id: $group_id})
WITH a LIMIT $limit
DETACH DELETE a
RETURN count(*) AS removed
