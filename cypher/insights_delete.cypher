// Erase: the insight versions with these ids and every version citing one of $cited_ids, with
// their evidence nodes; no version is left behind.
// params: group_id, ids, cited_ids
OPTIONAL MATCH (e:InsightEvidence {group_id: $group_id})
WHERE e.cited_id IN $cited_ids
WITH collect(DISTINCT e.insight_id) + $ids AS doomed
OPTIONAL MATCH (ev:InsightEvidence {group_id: $group_id})
WHERE ev.insight_id IN doomed
WITH doomed, collect(ev) AS evidence
FOREACH (x IN evidence | DELETE x)
WITH doomed
OPTIONAL MATCH (i:Insight {group_id: $group_id})
WHERE i.id IN doomed
DETACH DELETE i
RETURN count(i) AS removed
