// Transaction time: the rows recorded after $known_at (not yet believed then). Written over the
// row variable r, as believed_at.cypher is.
// variable: r
// params: known_at
  AND r.created_at > $known_at
