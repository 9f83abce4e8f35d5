// The erasure log of one group (by its key): receipts at or after $since (null: all), in the
// order they were written.
// scope: admin
// params: group_key, since
MATCH (r:ErasureReceipt {group_key: $group_key})
WHERE $since IS NULL OR r.at >= $since
RETURN r.request_id AS request_id,
       r.at.epochMillis * 1000 + r.at.microsecond % 1000 AS at,
       r.operation AS operation, r.counts AS counts,
       r.digest AS digest
ORDER BY r.seq
