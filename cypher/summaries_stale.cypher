// Entities whose summary may be out of date, in id order after $after: marked due (a write
// without summaries changed its facts), or with a current row not ended at $at and no current
// summary, or with a row created (not ended at $at) or expired after its current summary was made.
// A fact row is between two entities of its group, so the far end is not matched: matched by its
// label and group, it was planned as a scan of the group per entity (13 s at 5,000 facts).
// params: group_id, after, at, limit
MATCH (e:Entity {group_id: $group_id})
USING INDEX SEEK e:Entity(group_id)
WHERE e.id > $after
OPTIONAL MATCH (s:EntitySummary {group_id: $group_id, entity_id: e.id})
USING INDEX SEEK s:EntitySummary(group_id, entity_id)
WHERE s.expired_at IS NULL
WITH e, s
WHERE coalesce(e.summary_due, false) OR EXISTS {
  MATCH (e)-[r]-()
  WHERE r.group_id = $group_id AND r.fact_id IS NOT NULL
    AND ((r.expired_at IS NULL AND (r.invalid_at IS NULL OR r.invalid_at > $at)
          AND (s IS NULL OR r.created_at > s.created_at))
         OR (s IS NOT NULL AND r.expired_at > s.created_at))
}
RETURN e.id AS id
ORDER BY id
LIMIT $limit
