// Entity summaries that end with no successor (the entity has no current facts any more).
// params: group_id, rows
UNWIND $rows AS row
MATCH (s:EntitySummary {group_id: $group_id, entity_id: row.entity_id})
WHERE s.expired_at IS NULL
SET s.expired_at = row.at
RETURN count(s) AS ended
