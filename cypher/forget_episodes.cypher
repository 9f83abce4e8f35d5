// Forget, step 7 (at most $limit a transaction): the group's episodes.
// params: group_id, limit
MATCH (e:Episode {group_id: $group_id})
WITH e LIMIT $limit
DETACH DELETE e
RETURN count(*) AS removed
