// Forget, step 1 of 5 (one transaction): the group's fact rows.
// params: group_id
MATCH (:Entity {group_id: $group_id})-[r]->(:Entity {group_id: $group_id})
WHERE r.group_id = $group_id AND r.fact_id IS NOT NULL
DELETE r
RETURN count(*) AS removed
