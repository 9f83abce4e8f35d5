// New entity summary versions: each expires its entity's current version at its own
// created_at, then is added as the current one.
// params: group_id, rows
UNWIND $rows AS row
OPTIONAL MATCH (old:EntitySummary {group_id: $group_id, entity_id: row.entity_id})
WHERE old.expired_at IS NULL
SET old.expired_at = row.created_at
WITH row, count(old) AS superseded
CREATE (s:EntitySummary {id: row.id, group_id: $group_id})
SET s.entity_id = row.entity_id, s.entity = row.entity, s.text = row.text, s.method = row.method,
    s.fact_ids = row.fact_ids, s.created_at = row.created_at
RETURN count(s) AS written
