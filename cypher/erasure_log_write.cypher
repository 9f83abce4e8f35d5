// The erasure log: append one receipt (core/receipts.py), in the transaction of the erasure it
// records. The log names the group by its key (a digest of the id, never the id), so it holds
// nothing of a forgotten group; its counter node numbers the receipts in the order written.
// scope: admin
// params: group_key, request_id, at, operation, counts, digest
MERGE (c:ErasureLogCounter {group_key: $group_key})
SET c.seq = coalesce(c.seq, 0) + 1
CREATE (:ErasureReceipt {group_key: $group_key, seq: c.seq, request_id: $request_id, at: $at,
                         operation: $operation, counts: $counts, digest: $digest})
