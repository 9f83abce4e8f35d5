// The WHERE clause of rows_of_key*: current rows r (from s to o) of one object when $object_id is
// set, starting in [$since, $before) (an unknown start is the earliest), still holding after
// $ending_after; a null bound is no bound.
// params: group_id, object_id, since, before, ending_after
WHERE r.group_id = $group_id AND r.fact_id IS NOT NULL AND r.expired_at IS NULL
  AND ($object_id IS NULL OR o.id = $object_id)
  AND ($since IS NULL OR r.valid_at >= $since)
  AND ($before IS NULL OR r.valid_at IS NULL OR r.valid_at < $before)
  AND ($ending_after IS NULL OR r.invalid_at IS NULL OR r.invalid_at > $ending_after)
