// The group of entities or episodes known only by id ({{label}}: Entity or Episode; ids are unique
// across groups), for writes handed their vectors without reading them. Returns nothing else.
// scope: admin
// params: ids
// placeholders: label
UNWIND $ids AS node_id
MATCH (n:{{label}} {id: node_id})
RETURN n.id AS id, n.group_id AS group_id
