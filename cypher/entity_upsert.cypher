// New entities, or new aliases / type / summary of existing ones (name and created_at never change).
// Returns the type before this write so the store can move the type label.
// params: group_id, search_group, rows
UNWIND $rows AS row
MERGE (n:Entity {id: row.id, group_id: $group_id})
  ON CREATE SET n.name = row.name, n.key = row.key, n.created_at = row.created_at, n.seq = row.seq,
                n.search_group = $search_group
WITH n, row, n.type AS old_type
SET n.type = row.type, n.aliases = row.aliases, n.summary = row.summary, n.name_text = row.name_text
RETURN n.id AS id, old_type
