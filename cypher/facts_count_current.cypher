// How many current fact rows of a group are valid at a moment: those started by it ($start_key)
// less those also ended by it ($end_key, the same moment), each counted in a range index of the
// :CurrentFact nodes' keys (microseconds, current_fact_create; an unknown start sorts before every
// date, a row with no end has no `ends`). Counting index entries reads no node: walking every
// node of the group took 19 ms at 20,000 facts, each search that names an entity (its graph
// ranking is weighed by this count). Every current row: $start_key after every date, $end_key
// before every date.
// params: group_id, start_key, end_key
CALL () {
  MATCH (c:CurrentFact {group_id: $group_id})
  WHERE c.key_start <= $start_key
  RETURN count(c) AS started
}
CALL () {
  MATCH (c:CurrentFact {group_id: $group_id})
  WHERE c.ends <= $end_key AND c.key_start <= $end_key
  RETURN count(c) AS ended
}
RETURN started - ended AS n
