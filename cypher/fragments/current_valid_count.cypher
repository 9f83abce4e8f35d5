// How many current rows of the group are valid at a moment (current_valid): those started by it
// ($start_key) less those also ended by it ($end_key, the same moment); every current row with
// $start_key after every date and $end_key before every date. Where the group keeps its counts
// (current_rows, current_ended: changes_write.cypher), its current rows less those starting after
// the moment, less its rows with an end plus those ending after it. Those are ranges of the
// :CurrentFact keys past the moment, few entries for a moment near now, where the ranges up to it
// are nearly the whole group (a row's end comes after its start, so a row ended by the moment has
// started by it). A group whose counts are not kept (forgotten half-way) is counted by the ranges
// up to the moment. Counting index entries reads no node.
// params: group_id, start_key, end_key
OPTIONAL MATCH (g:MemoryGroup {group_id: $group_id})
WITH g.current_rows AS kept_rows, g.current_ended AS kept_ended
CALL (kept_rows) {
  MATCH (c:CurrentFact {group_id: $group_id})
  USING INDEX SEEK c:CurrentFact(group_id, key_start)
  WHERE c.key_start > CASE WHEN kept_rows IS NOT NULL THEN $start_key END
  RETURN count(c) AS starting_later
}
CALL (kept_rows) {
  MATCH (c:CurrentFact {group_id: $group_id})
  USING INDEX SEEK c:CurrentFact(group_id, ends, key_start)
  WHERE c.ends > CASE WHEN kept_rows IS NOT NULL THEN $end_key END AND c.key_start IS NOT NULL
  RETURN count(c) AS ending_later
}
CALL (kept_rows) {
  MATCH (c:CurrentFact {group_id: $group_id})
  USING INDEX SEEK c:CurrentFact(group_id, key_start)
  WHERE c.key_start <= CASE WHEN kept_rows IS NULL THEN $start_key END
  RETURN count(c) AS started
}
CALL (kept_rows) {
  MATCH (c:CurrentFact {group_id: $group_id})
  USING INDEX SEEK c:CurrentFact(group_id, ends, key_start)
  WHERE c.ends <= CASE WHEN kept_rows IS NULL THEN $end_key END AND c.key_start <= $end_key
  RETURN count(c) AS ended
}
WITH CASE WHEN kept_rows IS NULL THEN started - ended
          ELSE kept_rows - starting_later - kept_ended + ending_later END AS current_valid
