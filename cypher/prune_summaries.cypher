// Retention: entity summary versions no longer believed since before $before.
// params: group_id, before
MATCH (s:EntitySummary {group_id: $group_id})
WHERE s.expired_at < $before
DELETE s
RETURN count(*) AS removed
