// The entities answering to some name keys in a group (entity_by_key.cypher for many keys at once:
// a search looks up every word sequence of its query), with the key each answers to.
// params: group_id, keys
UNWIND $keys AS key
MATCH (k:EntityKey {group_id: $group_id, key: key})
MATCH (n:Entity {group_id: $group_id, id: k.entity_id})
USING INDEX SEEK n:Entity(id)
RETURN key, n.id AS id, n.group_id AS group_id, n.name AS name, n.type AS type,
       n.aliases AS aliases, n.summary AS summary,
       n.created_at.epochMillis * 1000 + n.created_at.microsecond % 1000 AS created_at
