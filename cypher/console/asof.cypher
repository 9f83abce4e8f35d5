// facts true at $t as the memory believed at $k (half-open intervals; a missing valid_at is "since forever")
// params: group_id, t, k
MATCH (s:Entity {group_id: $group_id})-[r]->(o:Entity)
WHERE r.fact_id IS NOT NULL
  AND (r.valid_at IS NULL OR r.valid_at <= $t) AND (r.invalid_at IS NULL OR r.invalid_at > $t)
  AND r.created_at <= $k AND (r.expired_at IS NULL OR r.expired_at > $k)
RETURN s.name, type(r), o.name, r.valid_at, r.invalid_at
ORDER BY s.name, type(r);
