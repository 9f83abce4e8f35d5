// Episodes of a group with no embedding yet (search embeds them on demand, in batches).
// params: group_id, limit
MATCH (e:Episode {group_id: $group_id})
WHERE e.embedding IS NULL
RETURN e.id AS id
LIMIT $limit
