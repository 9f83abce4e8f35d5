// Transaction time: every version when $all_versions; else the rows believed at $known_at
// (written by then, not yet expired then); else, with no $known_at, the current rows (never expired).
// Written over the row variable r; `// include: believed_at(x)` puts x in its place.
// variable: r
// params: known_at, all_versions
  AND ($all_versions
       OR ($known_at IS NULL AND r.expired_at IS NULL)
       OR (r.created_at <= $known_at AND (r.expired_at IS NULL OR r.expired_at > $known_at)))
