// Upgrade (layout 5): a group's counts of its current rows and of those with an end, which its
// writes keep from then on (changes_write.cypher; search counts with them, current_valid_count).
// The group's lock first (a write sets the node at its start): a write of the group meanwhile
// counts from the counts set here, or is counted by them.
// scope: admin
// params: group_id
MATCH (g:MemoryGroup {group_id: $group_id})
SET g.current_rows = null
WITH g
CALL () {
  MATCH (c:CurrentFact {group_id: $group_id})
  RETURN count(c) AS rows, count(c.ends) AS ended
}
SET g.current_rows = rows, g.current_ended = ended
RETURN rows
