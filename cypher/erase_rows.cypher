// Erase, step 1: fact versions removed for good, by row id.
// params: group_id, ids
MATCH (:Entity {group_id: $group_id})-[r]->(:Entity {group_id: $group_id})
WHERE r.group_id = $group_id AND r.fact_id IS NOT NULL AND r.id IN $ids
DELETE r
RETURN count(*) AS removed
