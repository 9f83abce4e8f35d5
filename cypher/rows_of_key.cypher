// Current rows of one (subject, relation) starting in [$start_from, $start_before) (a start in
// microseconds, an unknown one before every date) and, with $ending_after, still holding after
// it: the stretch of a timeline a write can change, without provenance (current_row_bare).
// Earliest start first. Read through the
// :CurrentFact nodes of the key (one per current row), so its expired versions are never walked.
// params: group_id, subject_id, relation, start_from, start_before, ending_after, limit
MATCH (c:CurrentFact {group_id: $group_id, subject_id: $subject_id, relation: $relation})
USING INDEX SEEK c:CurrentFact(group_id, subject_id, relation, key_start)
WHERE c.key_start >= $start_from AND c.key_start < $start_before
// include: key_rows_filters
WITH c
ORDER BY c.group_id, c.subject_id, c.relation, c.key_start
LIMIT $limit
// include: current_row_bare
ORDER BY c.key_start
