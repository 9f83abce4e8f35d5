// Erase, step 1: fact versions removed for good, by row id.
// params: group_id, ids
MATCH (:Entity {group_id: $group_id})-[r]->(:Entity {group_id: $group_id})
WHERE r.group_id = $group_id AND r.fact_id IS NOT NULL AND r.id IN $ids
WITH r, r.id AS row_id
DELETE r
WITH row_id
OPTIONAL MATCH (c:CurrentFact {group_id: $group_id, row_id: row_id})
DELETE c
RETURN count(*) AS removed
