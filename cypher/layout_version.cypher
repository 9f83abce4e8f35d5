// The version of the store's data layout in this database (null: written before it was kept, or
// empty), and whether anything of ours is here to upgrade.
// scope: admin
// params:
OPTIONAL MATCH (l:MemoryLayout)
WITH max(l.version) AS version
OPTIONAL MATCH (g:MemoryGroup)
RETURN version, count(g) > 0 AS written
