// Fact rows expired after $expired_after (with the usual filters): with $known_at, what was
// believed then and is no longer, which a search as known at K adds to the indexes of current
// rows. Per relation type the planner reads the group's rows (the index on group_id) or the rows
// expired since (the index on expired_at), whichever its statistics say are fewer: never more than
// the group's rows, where the group-wide read (facts_in_group) reads all of them.
// params: group_id, relation, subject_id, object_id, fact_id, valid_time, known_at, all_versions, limit, ids, expired_after
// placeholders: types
CALL () {
  // each type of {{types}}, joined by UNION ALL
  MATCH (s)-[r:{{type}}]->(o)
  WHERE r.group_id = $group_id AND r.expired_at > $expired_after
  RETURN s, r, o
  // end each
}
WITH s, r, o
// include: fact_filters
// include: fact_return
// valid_at with unknown starts first, then transaction time, then row id
ORDER BY r.valid_at IS NOT NULL, r.valid_at, r.created_at, r.id
LIMIT $limit
