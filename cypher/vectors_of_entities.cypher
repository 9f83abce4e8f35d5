// The stored vectors of entities by id (copying a memory between stores).
// params: group_id, ids
UNWIND $ids AS entity_id
MATCH (n:Entity {group_id: $group_id, id: entity_id})
USING INDEX SEEK n:Entity(id)
WHERE n.embedding IS NOT NULL
RETURN n.id AS id, n.embedding AS vector
