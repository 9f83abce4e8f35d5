// Remove a type label the entity no longer has.
// params: group_id, ids
// placeholders: label
UNWIND $ids AS id
MATCH (n:Entity {group_id: $group_id, id: id})
USING INDEX SEEK n:Entity(id)
REMOVE n:{{label}}
