// what is true now, as currently believed, as nodes and relationships (tgraph view draws them)
// params: group_id, now
MATCH (s:Entity {group_id: $group_id})-[r]->(o:Entity)
WHERE r.fact_id IS NOT NULL AND r.expired_at IS NULL
  AND (r.valid_at IS NULL OR r.valid_at <= $now) AND (r.invalid_at IS NULL OR r.invalid_at > $now)
RETURN s, r, o;
