// Record the data layout version once an upgrade (or a first connect) is done.
// scope: admin
// params: version
MERGE (l:MemoryLayout {name: 'temporal-graph'})
SET l.version = $version
