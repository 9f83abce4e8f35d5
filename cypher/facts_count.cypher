// How many fact rows of a group a fact read would return (search weighs the graph ranking by it).
// params: group_id, relation, subject_id, object_id, fact_id, valid_time, known_at, all_versions, ids
// A fact row joins two entities of its own group, so its far end is not matched by label and
// group: matched so, it could be planned as a scan of the group for each entity.
MATCH (s:Entity {group_id: $group_id})-[r]->(o)
USING INDEX SEEK s:Entity(group_id)
// include: fact_filters
RETURN count(r) AS n
