// Current fact rows by row id (search candidates), each through its :CurrentFact node and the
// element id it keeps: no relation type to name, whatever types the group has; valid at
// $valid_time. A row no longer current is not found (facts_by_ids reads any version).
// The row's ends are matched bare, as in fragments/current_row.cypher (why: there). The hint holds
// the seek whatever statistics a cached plan was made with (one made while the label was nearly
// empty scanned it once per id).
// params: group_id, ids, valid_time, limit
UNWIND $ids AS row_id
MATCH (c:CurrentFact {group_id: $group_id, row_id: row_id})
USING INDEX SEEK c:CurrentFact(row_id)
CALL (c) {
  MATCH (s)-[r]->(o)
  WHERE elementId(r) = c.rel AND r.id = c.row_id AND r.group_id = $group_id AND r.expired_at IS NULL
    AND r.fact_id IS NOT NULL
    // include: valid_at
  // include: fact_return
}
RETURN id, fact_id, group_id, subject_id, subject, relation, object_id, object, text, valid_at,
       invalid_at, created_at, expired_at, episode_ids, confidence, importance, attributes
LIMIT $limit
