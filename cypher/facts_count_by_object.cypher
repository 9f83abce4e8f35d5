// How many fact rows pointing at one object a fact read would return (anchored on the object's id).
// params: group_id, relation, subject_id, object_id, fact_id, valid_time, known_at, all_versions, ids
MATCH (s:Entity {group_id: $group_id})-[r]->(o:Entity {group_id: $group_id, id: $object_id})
USING INDEX SEEK o:Entity(id)
// include: fact_filters
RETURN count(r) AS n
