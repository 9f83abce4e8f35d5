// rows_of_key.cypher, latest start first (an unknown start last).
// params: group_id, subject_id, relation, start_from, start_before, ending_after, limit
MATCH (c:CurrentFact {group_id: $group_id, subject_id: $subject_id, relation: $relation})
USING INDEX SEEK c:CurrentFact(group_id, subject_id, relation, key_start)
WHERE c.key_start >= $start_from AND c.key_start < $start_before
// include: key_rows_filters
WITH c
ORDER BY c.group_id DESC, c.subject_id DESC, c.relation DESC, c.key_start DESC
LIMIT $limit
// include: current_row_bare
ORDER BY c.key_start DESC
