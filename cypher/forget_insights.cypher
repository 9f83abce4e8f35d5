// Forget: the group's insight versions and their evidence nodes.
// params: group_id
OPTIONAL MATCH (e:InsightEvidence {group_id: $group_id})
DELETE e
WITH count(e) AS evidence
OPTIONAL MATCH (i:Insight {group_id: $group_id})
DELETE i
RETURN count(i) AS removed
