// The group and relation type of fact rows known only by id (rows a write was handed without
// reading them, such as vectors a reindex computed): each id is a seek in the unique row-id index
// of each type ({{types}}: the types the database has). Returns nothing else of the rows.
// scope: admin
// params: ids
// placeholders: types
UNWIND $ids AS row_id
MATCH ()-[r:{{types}} {id: row_id}]->()
RETURN r.id AS id, r.group_id AS group_id, type(r) AS relation
