// Every fact version (current or expired) whose provenance names one of $episode_ids. Found
// through the statements those messages made (indexed by episode): only the keys they spoke of
// are walked, never the whole group.
// params: group_id, episode_ids
UNWIND $episode_ids AS episode_id
MATCH (a:Assertion {group_id: $group_id, episode_id: episode_id})
WITH DISTINCT a.subject_id AS subject_id, a.relation AS relation
MATCH (s:Entity {group_id: $group_id, id: subject_id})-[r]->(o:Entity {group_id: $group_id})
USING INDEX SEEK s:Entity(id)
WHERE type(r) = relation AND r.group_id = $group_id AND r.fact_id IS NOT NULL
  AND any(e IN r.episode_ids WHERE e IN $episode_ids)
WITH DISTINCT s, r, o
// include: fact_return
