// The current row a :CurrentFact node c stands for, as one map `row` without its provenance
// (current_row_bare.cypher's columns), or null when c is stale; for write_read_ahead.cypher.
// params: group_id
CALL (c) {
  OPTIONAL MATCH ()-[r]->()
  WHERE elementId(r) = c.rel AND r.id = c.row_id AND r.group_id = $group_id AND r.expired_at IS NULL
  WITH r, startNode(r) AS s, endNode(r) AS o
  RETURN CASE WHEN r IS NULL THEN null ELSE {
           id: r.id, fact_id: r.fact_id, group_id: r.group_id, subject_id: s.id, subject: s.name,
           relation: type(r), object_id: o.id, object: o.name, text: r.text,
           valid_at: r.valid_at.epochMillis * 1000 + r.valid_at.microsecond % 1000,
           invalid_at: r.invalid_at.epochMillis * 1000 + r.invalid_at.microsecond % 1000,
           created_at: r.created_at.epochMillis * 1000 + r.created_at.microsecond % 1000,
           expired_at: r.expired_at.epochMillis * 1000 + r.expired_at.microsecond % 1000,
           episode_ids: [], confidence: r.confidence,
           importance: r.importance, attributes: r.attributes_json} END AS row
}
