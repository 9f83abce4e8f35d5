// An entity's current fact rows not ended at a time, newest first: latest start (an unknown start
// counts from created_at), then latest created_at, then by relation, subject id, object id and
// row id; $limit of them after $skip (a summary reads only what it states). Through its
// :CurrentFact nodes: the open rows in that order (c.newest spells it), as subject and as
// object, $skip + $limit of each; and the rows ending after $at_micros, found by their end.
// params: group_id, entity_id, at_micros, skip, limit
CALL () {
  MATCH (c:CurrentFact {group_id: $group_id, subject_id: $entity_id})
  USING INDEX SEEK c:CurrentFact(group_id, subject_id, newest)
  WHERE c.newest >= ''
  RETURN c ORDER BY c.group_id, c.subject_id, c.newest LIMIT $skip + $limit
  UNION
  MATCH (c:CurrentFact {group_id: $group_id, object_id: $entity_id})
  USING INDEX SEEK c:CurrentFact(group_id, object_id, newest)
  WHERE c.newest >= ''
  RETURN c ORDER BY c.group_id, c.object_id, c.newest LIMIT $skip + $limit
  UNION
  MATCH (c:CurrentFact {group_id: $group_id, subject_id: $entity_id})
  USING INDEX SEEK c:CurrentFact(group_id, subject_id, ends)
  WHERE c.ends > $at_micros
  RETURN c
  UNION
  MATCH (c:CurrentFact {group_id: $group_id, object_id: $entity_id})
  USING INDEX SEEK c:CurrentFact(group_id, object_id, ends)
  WHERE c.ends > $at_micros
  RETURN c
}
// include: current_row
ORDER BY coalesce(r.valid_at, r.created_at) DESC, r.created_at DESC, type(r), s.id, o.id, r.id
SKIP $skip
LIMIT $limit
