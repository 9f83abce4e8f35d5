// Upgrade, a batch at a time: the index keys of assertions written before they were kept (the
// moment in microseconds, $undated for none; the object id, '' for none).
// scope: admin
// params: undated, batch
MATCH (a:Assertion)
WHERE a.at_key IS NULL
WITH a LIMIT $batch
SET a.at_key = CASE WHEN a.at IS NULL THEN $undated ELSE a.at.epochMillis * 1000 + a.at.microsecond % 1000 END,
    a.object_key = coalesce(a.object_id, '')
RETURN count(a) AS upgraded
