// The entity that answers to a name key in a group.
// params: group_id, key
MATCH (k:EntityKey {group_id: $group_id, key: $key})
MATCH (n:Entity {group_id: $group_id, id: k.entity_id})
USING INDEX SEEK n:Entity(id)
RETURN n.id AS id, n.group_id AS group_id, n.name AS name, n.type AS type,
       n.aliases AS aliases, n.summary AS summary,
       n.created_at.epochMillis * 1000 + n.created_at.microsecond % 1000 AS created_at
LIMIT 1
