// How many fact rows of a group a fact read would return (search weighs the graph ranking by it).
// params: group_id, relation, subject_id, object_id, fact_id, valid_time, known_at, all_versions, ids
MATCH (s:Entity {group_id: $group_id})-[r]->(o:Entity {group_id: $group_id})
// include: fact_filters
RETURN count(r) AS n
