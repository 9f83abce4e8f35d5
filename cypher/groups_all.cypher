// Every group that has been written to (test clean-up and admin tools).
// scope: admin
// params:
MATCH (g:MemoryGroup)
RETURN g.group_id AS group_id
ORDER BY group_id
