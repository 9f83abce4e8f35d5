// Add the entity's type as a second label, (:Entity:Person), for exploring by hand.
// params: group_id, ids
// placeholders: label
UNWIND $ids AS id
MATCH (n:Entity {group_id: $group_id, id: id})
USING INDEX SEEK n:Entity(id)
SET n:{{label}}
