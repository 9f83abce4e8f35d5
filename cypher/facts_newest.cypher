// An entity's current fact rows, as subject or as object, not ended at $at, newest first: latest
// start (an unknown start counts from created_at), then latest created_at, then by relation,
// subject id, object id and row id; $limit of them after $skip (a summary reads only what it states).
// params: group_id, entity_id, at, skip, limit
CALL {
  MATCH (s:Entity {group_id: $group_id, id: $entity_id})-[r]->(o:Entity {group_id: $group_id})
  WHERE r.group_id = $group_id AND r.fact_id IS NOT NULL AND r.expired_at IS NULL
    AND (r.invalid_at IS NULL OR r.invalid_at > $at)
  RETURN s, r, o
  UNION
  MATCH (s:Entity {group_id: $group_id})-[r]->(o:Entity {group_id: $group_id, id: $entity_id})
  WHERE r.group_id = $group_id AND r.fact_id IS NOT NULL AND r.expired_at IS NULL
    AND (r.invalid_at IS NULL OR r.invalid_at > $at)
  RETURN s, r, o
}
WITH s, r, o
ORDER BY coalesce(r.valid_at, r.created_at) DESC, r.created_at DESC, type(r), s.id, o.id, r.id
SKIP $skip
LIMIT $limit
// include: fact_return
