package store

// SetUnreachedLimit sets the share of lost chunks above which EnsureScopes builds a
// scope's graph again (MaxUnreachedShare in production). A negative share makes every
// build count as poor.
func SetUnreachedLimit(s *Store, share float64) { s.unreachedLimit = share }
