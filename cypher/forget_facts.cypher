// Forget, step 5 (at most $limit a transaction): the group's fact rows.
// params: group_id, limit
// A fact row joins two entities of its own group, so its far end is not matched by label and
// group: matched so, it could be planned as a scan of the group for each entity.
MATCH (s:Entity {group_id: $group_id})-[r]->()
USING INDEX SEEK s:Entity(group_id)
WHERE r.group_id = $group_id AND r.fact_id IS NOT NULL
WITH r LIMIT $limit
DELETE r
RETURN count(*) AS removed
