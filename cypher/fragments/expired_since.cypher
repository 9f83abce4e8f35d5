// Transaction time: the rows believed at $known_at and expired since (written by then, expired
// after). Written over the row variable r, as believed_at.cypher is.
// variable: r
// params: known_at
  AND r.created_at <= $known_at AND r.expired_at > $known_at
