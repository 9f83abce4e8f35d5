// Every fact version (current or expired) whose provenance names one episode.
// params: group_id, episode_id
MATCH (s:Entity {group_id: $group_id})-[r]->(o:Entity {group_id: $group_id})
WHERE r.group_id = $group_id AND r.fact_id IS NOT NULL AND $episode_id IN r.episode_ids
// include: fact_return
