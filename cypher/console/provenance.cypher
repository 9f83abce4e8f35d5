// the episodes behind current facts
// params: group_id
MATCH (s:Entity {group_id: $group_id})-[r]->(o:Entity)
WHERE r.fact_id IS NOT NULL AND r.expired_at IS NULL
MATCH (e:Episode {group_id: $group_id}) WHERE e.id IN r.episode_ids
RETURN s.name, type(r), o.name, e.reference_time, e.content
LIMIT 25;
