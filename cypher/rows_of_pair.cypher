// rows_of_key.cypher for the rows of one object ($object_id), through the index of :CurrentFact
// nodes by object and start.
// params: group_id, subject_id, relation, object_id, start_from, start_before, ending_after, limit
MATCH (c:CurrentFact {group_id: $group_id, subject_id: $subject_id, relation: $relation, object_id: $object_id})
USING INDEX SEEK c:CurrentFact(group_id, subject_id, relation, object_id, key_start)
WHERE c.key_start >= $start_from AND c.key_start < $start_before
// include: key_rows_filters
WITH c
ORDER BY c.group_id, c.subject_id, c.relation, c.object_id, c.key_start
LIMIT $limit
// include: current_row_bare
ORDER BY c.key_start
