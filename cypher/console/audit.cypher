// every version of the facts about one subject, across transaction time
// params: group_id, name
MATCH (s:Entity {group_id: $group_id, key: toLower($name)})-[r]->(o:Entity)
WHERE r.fact_id IS NOT NULL
RETURN r.fact_id, type(r), o.name, r.valid_at, r.invalid_at, r.created_at, r.expired_at
ORDER BY r.fact_id, r.created_at;
