// The ids of every record of a group, by kind (as erasure receipts count them): what forget
// removes, and (read before and after) what a prune removed.
// params: group_id
MATCH (e:Episode {group_id: $group_id})
RETURN 'episodes' AS kind, e.id AS id
UNION ALL
MATCH (n:Entity {group_id: $group_id})
RETURN 'entities' AS kind, n.id AS id
UNION ALL
MATCH (a:Assertion {group_id: $group_id})
RETURN 'assertions' AS kind, a.id AS id
UNION ALL
// A fact row joins two entities of its own group, so its far end is not matched by label and
// group: matched so, it could be planned as a scan of the group for each entity.
MATCH (s:Entity {group_id: $group_id})-[r]->()
USING INDEX SEEK s:Entity(group_id)
WHERE r.group_id = $group_id AND r.fact_id IS NOT NULL
RETURN 'fact_versions' AS kind, r.id AS id
UNION ALL
MATCH (s:EntitySummary {group_id: $group_id})
RETURN 'summary_versions' AS kind, s.id AS id
UNION ALL
MATCH (i:Insight {group_id: $group_id})
RETURN 'insight_versions' AS kind, i.id AS id
