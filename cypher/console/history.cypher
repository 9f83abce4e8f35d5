// the valid-time timeline of one subject, as currently believed
// params: group_id, name
MATCH (s:Entity {group_id: $group_id, key: toLower($name)})-[r]->(o:Entity)
WHERE r.fact_id IS NOT NULL AND r.expired_at IS NULL
RETURN type(r), o.name, r.valid_at, r.invalid_at
ORDER BY type(r), r.valid_at;
