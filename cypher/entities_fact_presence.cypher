// For each of some entities: whether a fact row naming it (as subject or object) is valid at
// $valid_time as believed at $known_at (current rows when null), and whether any version naming
// it was recorded by $known_at (any at all when null). Search leaves out an entity the memory
// holds facts about none of which holds then. A fact row is between two entities of its group, so
// its far end is not matched by label and group (which the planner may turn into a scan of the
// group for each entity).
// params: group_id, entity_ids, valid_time, known_at, all_versions
UNWIND $entity_ids AS entity_id
MATCH (n:Entity {group_id: $group_id, id: entity_id})
USING INDEX SEEK n:Entity(id)
RETURN entity_id,
       EXISTS {
         MATCH (n)-[r]-()
         WHERE r.group_id = $group_id AND r.fact_id IS NOT NULL
           // include: valid_at
           // include: believed_at
       } AS holds,
       EXISTS {
         MATCH (n)-[r]-()
         WHERE r.group_id = $group_id AND r.fact_id IS NOT NULL
           AND ($known_at IS NULL OR r.created_at <= $known_at)
       } AS recorded
