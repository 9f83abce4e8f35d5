// Forget, step 9 (at most $limit a transaction): the group's entities.
// params: group_id, limit
MATCH (n:Entity {group_id: $group_id})
WITH n LIMIT $limit
DETACH DELETE n
RETURN count(*) AS removed
