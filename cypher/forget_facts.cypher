// Forget, step 5 (at most $limit a transaction): the group's fact rows.
// params: group_id, limit
MATCH (:Entity {group_id: $group_id})-[r]->(:Entity {group_id: $group_id})
WHERE r.group_id = $group_id AND r.fact_id IS NOT NULL
WITH r LIMIT $limit
DELETE r
RETURN count(*) AS removed
