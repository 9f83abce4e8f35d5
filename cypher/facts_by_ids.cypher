// Fact rows by row id (search candidates): each id is a lookup in the unique row-id index of
// its relationship type ($ids is short, a few hundred at most; {{types}}: the group's relations;
// the filters' own $ids test then always holds). One seek per type: over several types at once
// the server seeks no property index, and with the ends matched by label and group it may start
// from every entity of the group instead (30 ids read 29,000 relationships at 1,000 facts).
// params: group_id, relation, subject_id, object_id, fact_id, valid_time, known_at, all_versions, limit, ids
// placeholders: types
UNWIND $ids AS row_id
CALL (row_id) {
  // each type of {{types}}, joined by UNION ALL
  MATCH (s)-[r:{{type}} {id: row_id}]->(o)
  USING INDEX SEEK r:{{type}}(id)
  RETURN s, r, o
  // end each
}
WITH s, r, o
// include: fact_filters
// include: fact_return
LIMIT $limit
