// Name keys (name and aliases) an entity answers to; the first entity to claim a key keeps it.
// params: group_id, rows
UNWIND $rows AS row
MERGE (k:EntityKey {group_id: $group_id, key: row.key})
  ON CREATE SET k.entity_id = row.entity_id
