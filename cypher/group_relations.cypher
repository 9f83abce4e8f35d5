// The relation types a group has written, as its MemoryGroup node lists them (a type stays listed
// after its last row is erased; relations_present.cypher tells which still have rows). Null for a
// group written before the list was kept.
// params: group_id
MATCH (g:MemoryGroup {group_id: $group_id})
RETURN g.relations AS relations
