package acp

// TrackedCalls returns how many tool calls the session of env keeps.
func TrackedCalls(env *Env) int {
	t := env.s.tools
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.calls)
}
