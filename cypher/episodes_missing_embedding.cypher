// Episodes of a group with no embedding yet (search embeds them on demand, in batches).
// params: group_id, limit
MATCH (e:Episode {group_id: $group_id})
WHERE e.embedding IS NULL AND e.retracted_at IS NULL AND e.erased_at IS NULL
RETURN e.id AS id
LIMIT $limit
