// What a bulk load reads of each (subject, relation) key it writes that already has a history, for
// many keys in one statement: every assertion of the key and its current rows, provenance and all
// (assertions_for and facts_by_subject with the relation, key by key, each a round trip).
// params: group_id, keys, undated
UNWIND $keys AS key
CALL (key) {
  OPTIONAL MATCH (a:Assertion {group_id: $group_id, subject_id: key.subject_id, relation: key.relation})
  USING INDEX SEEK a:Assertion(group_id, subject_id, relation)
  RETURN collect(a {.id, .group_id, .subject_id, .relation, .object_id, .kind,
                    at: a.at.epochMillis * 1000 + a.at.microsecond % 1000,
                    until: a.until.epochMillis * 1000 + a.until.microsecond % 1000,
                    created_at: a.created_at.epochMillis * 1000 + a.created_at.microsecond % 1000,
                    .seq, .episode_id, .text, .confidence, .importance,
                    attributes: a.attributes_json}) AS assertions
}
CALL (key) {
  OPTIONAL MATCH (c:CurrentFact {group_id: $group_id, subject_id: key.subject_id, relation: key.relation})
  USING INDEX SEEK c:CurrentFact(group_id, subject_id, relation, key_start)
  WHERE c.key_start >= $undated
  CALL (c) {
    // by element id alone (a seek), its ends taken from the relationship
    MATCH ()-[r]->()
    WHERE elementId(r) = c.rel
    WITH r, startNode(r) AS s, endNode(r) AS o
    WHERE r.id = c.row_id AND r.group_id = $group_id AND r.expired_at IS NULL
    RETURN {id: r.id, fact_id: r.fact_id, group_id: r.group_id, subject_id: s.id, subject: s.name,
            relation: type(r), object_id: o.id, object: o.name, text: r.text,
            valid_at: r.valid_at.epochMillis * 1000 + r.valid_at.microsecond % 1000,
            invalid_at: r.invalid_at.epochMillis * 1000 + r.invalid_at.microsecond % 1000,
            created_at: r.created_at.epochMillis * 1000 + r.created_at.microsecond % 1000,
            expired_at: r.expired_at.epochMillis * 1000 + r.expired_at.microsecond % 1000,
            episode_ids: r.episode_ids, confidence: r.confidence,
            importance: r.importance, attributes: r.attributes_json} AS row
  }
  RETURN collect(row) AS rows
}
RETURN key.subject_id AS subject_id, key.relation AS relation, assertions, rows
