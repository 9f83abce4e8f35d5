// Erase, step 6: entities removed for good, with the name keys that lead to them.
// params: group_id, ids
OPTIONAL MATCH (k:EntityKey {group_id: $group_id})
WHERE k.entity_id IN $ids
DELETE k
WITH count(*) AS ignored
UNWIND $ids AS id
MATCH (n:Entity {group_id: $group_id, id: id})
USING INDEX SEEK n:Entity(id)
DETACH DELETE n
