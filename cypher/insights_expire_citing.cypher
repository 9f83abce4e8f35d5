// An insight follows its evidence: every current insight citing one of these fact versions or
// episodes expires with it.
// params: group_id, rows
UNWIND $rows AS row
MATCH (e:InsightEvidence {group_id: $group_id, cited_id: row.cited_id})
MATCH (i:Insight {group_id: $group_id, id: e.insight_id})
USING INDEX SEEK i:Insight(id)
WHERE i.expired_at IS NULL
SET i.expired_at = row.at
RETURN count(i) AS expired
