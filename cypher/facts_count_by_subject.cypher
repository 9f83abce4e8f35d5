// How many fact rows of one subject a fact read would return (anchored on the subject's id, as
// facts_by_subject is: the whole-group count expands every relationship of the group).
// params: group_id, relation, subject_id, object_id, fact_id, valid_time, known_at, all_versions, ids
MATCH (s:Entity {group_id: $group_id, id: $subject_id})-[r]->(o:Entity {group_id: $group_id})
USING INDEX SEEK s:Entity(id)
// include: fact_filters
RETURN count(r) AS n
