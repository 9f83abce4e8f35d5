// Wait until new indexes are online (population is asynchronous).
// scope: schema
// params: timeout_seconds
CALL db.awaitIndexes($timeout_seconds)
