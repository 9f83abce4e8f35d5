// Retention: fact versions no longer believed since before $before.
// params: group_id, before
MATCH (:Entity {group_id: $group_id})-[r]->(:Entity {group_id: $group_id})
WHERE r.group_id = $group_id AND r.fact_id IS NOT NULL AND r.expired_at < $before
DELETE r
RETURN count(*) AS removed
