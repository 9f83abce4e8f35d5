// Provenance for exploring: (:Episode)-[:MENTIONS]->(:Entity) for the subject and object of
// every fact an episode supports. (The fact itself carries the episode ids.)
// params: group_id, rows
UNWIND $rows AS row
MATCH (ep:Episode {group_id: $group_id, id: row.episode_id})
USING INDEX SEEK ep:Episode(id)
MATCH (n:Entity {group_id: $group_id, id: row.entity_id})
USING INDEX SEEK n:Entity(id)
MERGE (ep)-[:MENTIONS]->(n)
