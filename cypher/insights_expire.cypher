// Insights that stop being believed (a revision takes their place): each current one by id.
// params: group_id, rows
UNWIND $rows AS row
MATCH (i:Insight {group_id: $group_id, id: row.id})
USING INDEX SEEK i:Insight(id)
WHERE i.expired_at IS NULL
SET i.expired_at = row.at
RETURN count(i) AS expired
