// Retention, before prune_facts: the insight versions no longer believed since before $before, and
// every version citing a fact version retention drops (an insight never cites a record that no
// longer exists), with their evidence nodes.
// params: group_id, before
// A fact row joins two entities of its own group, so its far end is not matched by label and
// group: matched so, it could be planned as a scan of the group for each entity.
OPTIONAL MATCH (s:Entity {group_id: $group_id})-[r]->()
USING INDEX SEEK s:Entity(group_id)
WHERE r.group_id = $group_id AND r.fact_id IS NOT NULL AND r.expired_at < $before
OPTIONAL MATCH (e:InsightEvidence {group_id: $group_id, cited_id: r.id})
WITH collect(DISTINCT e.insight_id) AS citing
OPTIONAL MATCH (old:Insight {group_id: $group_id})
WHERE old.expired_at < $before
WITH citing, collect(old.id) AS ended
WITH citing + ended AS doomed
OPTIONAL MATCH (ev:InsightEvidence {group_id: $group_id})
WHERE ev.insight_id IN doomed
WITH doomed, collect(ev) AS evidence
FOREACH (x IN evidence | DELETE x)
WITH DISTINCT doomed
OPTIONAL MATCH (i:Insight {group_id: $group_id})
WHERE i.id IN doomed
DETACH DELETE i
RETURN count(i) AS removed
