// Current fact rows of a group with no embedding yet (search embeds them on demand, in batches).
// params: group_id, limit
MATCH (:Entity {group_id: $group_id})-[r]->(:Entity {group_id: $group_id})
WHERE r.group_id = $group_id AND r.fact_id IS NOT NULL AND r.expired_at IS NULL AND r.embedding IS NULL
RETURN r.id AS id
LIMIT $limit
