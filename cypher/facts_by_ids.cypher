// Fact rows by row id (search candidates): each id is a lookup in the unique row-id index of
// its relationship type ($ids is short, a few hundred at most; {{types}}: the group's relations;
// the filters' own $ids test then always holds).
// params: group_id, relation, subject_id, object_id, fact_id, valid_time, known_at, all_versions, limit, ids
// placeholders: types
UNWIND $ids AS row_id
MATCH (s:Entity {group_id: $group_id})-[r:{{types}} {id: row_id}]->(o:Entity {group_id: $group_id})
// include: fact_filters
// include: fact_return
LIMIT $limit
