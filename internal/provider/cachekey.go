package provider

// promptCacheKeyLimit is OpenAI's limit on prompt_cache_key, in
// characters.
const promptCacheKeyLimit = 64

// PromptCacheKey is a session ID as OpenAI's prompt_cache_key: cut to its
// first 64 characters (code points), as pi-ai clamps it.
func PromptCacheKey(session string) string {
	n := 0
	for i := range session {
		if n == promptCacheKeyLimit {
			return session[:i]
		}
		n++
	}
	return session
}
