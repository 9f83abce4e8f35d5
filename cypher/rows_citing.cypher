// Every fact version (current or expired) whose provenance names one episode.
// params: group_id, episode_id
// A fact row joins two entities of its own group, so its far end is not matched by label and
// group: matched so, it could be planned as a scan of the group for each entity.
MATCH (s:Entity {group_id: $group_id})-[r]->(o)
USING INDEX SEEK s:Entity(group_id)
WHERE r.group_id = $group_id AND r.fact_id IS NOT NULL AND $episode_id IN r.episode_ids
// include: fact_return
