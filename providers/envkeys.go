package providers

import "os"

// envKeys are the environment variables that hold each provider's key,
// in the order they are read: pi-ai's table, without the variables whose
// tokens pi-ai sends otherwise than as a key (Anthropic's OAuth and
// auth tokens).
var envKeys = map[string][]string{
	"ant-ling":                      {"ANT_LING_API_KEY"},
	"qwen-token-plan":               {"QWEN_TOKEN_PLAN_TEAM_API_KEY", "QWEN_TOKEN_PLAN_API_KEY"},
	"qwen-token-plan-cn":            {"QWEN_TOKEN_PLAN_TEAM_CN_API_KEY", "QWEN_TOKEN_PLAN_CN_API_KEY"},
	"qwen-token-plan-individual":    {"QWEN_TOKEN_PLAN_INDIVIDUAL_API_KEY", "QWEN_TOKEN_PLAN_API_KEY"},
	"qwen-token-plan-individual-cn": {"QWEN_TOKEN_PLAN_INDIVIDUAL_CN_API_KEY", "QWEN_TOKEN_PLAN_CN_API_KEY"},
	"anthropic":                     {"ANTHROPIC_API_KEY"},
	"openai":                        {"OPENAI_API_KEY"},
	"azure":                         {"AZURE_OPENAI_API_KEY"},
	"nvidia":                        {"NVIDIA_API_KEY"},
	"deepseek":                      {"DEEPSEEK_API_KEY"},
	"google":                        {"GEMINI_API_KEY"},
	"google-vertex":                 {"GOOGLE_CLOUD_API_KEY"},
	"groq":                          {"GROQ_API_KEY"},
	"cerebras":                      {"CEREBRAS_API_KEY"},
	"xai":                           {"XAI_API_KEY"},
	"typesafe":                      {"TYPESAFE_API_KEY"},
	"radius":                        {"RADIUS_API_KEY"},
	"openrouter":                    {"OPENROUTER_API_KEY"},
	"vercel-ai-gateway":             {"AI_GATEWAY_API_KEY"},
	"zai":                           {"ZAI_API_KEY"},
	"zai-coding-cn":                 {"ZAI_CODING_CN_API_KEY"},
	"mistral":                       {"MISTRAL_API_KEY"},
	"minimax":                       {"MINIMAX_API_KEY"},
	"minimax-cn":                    {"MINIMAX_CN_API_KEY"},
	"moonshotai":                    {"MOONSHOT_API_KEY"},
	"moonshotai-cn":                 {"MOONSHOT_API_KEY"},
	"huggingface":                   {"HF_TOKEN"},
	"fireworks":                     {"FIREWORKS_API_KEY"},
	"together":                      {"TOGETHER_API_KEY"},
	"baseten":                       {"BASETEN_API_KEY"},
	"opencode":                      {"OPENCODE_API_KEY"},
	"opencode-go":                   {"OPENCODE_API_KEY"},
	"kimi-coding":                   {"KIMI_API_KEY"},
	"meta":                          {"META_API_KEY"},
	"cloudflare-workers-ai":         {"CLOUDFLARE_API_KEY"},
	"cloudflare-ai-gateway":         {"CLOUDFLARE_API_KEY"},
	"xiaomi":                        {"XIAOMI_API_KEY"},
	"xiaomi-token-plan-cn":          {"XIAOMI_TOKEN_PLAN_CN_API_KEY"},
	"xiaomi-token-plan-ams":         {"XIAOMI_TOKEN_PLAN_AMS_API_KEY"},
	"xiaomi-token-plan-sgp":         {"XIAOMI_TOKEN_PLAN_SGP_API_KEY"},
	"github-copilot":                {"COPILOT_GITHUB_TOKEN"},
}

// EnvAPIKey returns the key of provider (an [agentcore.Model.Provider]
// such as "google") from the environment, as pi-ai's getEnvApiKey reads
// it: the first non-empty of the provider's variables (GEMINI_API_KEY for
// "google", OPENAI_API_KEY for "openai", ANTHROPIC_API_KEY for
// "anthropic", ...), "" for a provider with none. getenv reads a variable;
// nil means [os.Getenv].
func EnvAPIKey(provider string, getenv func(string) string) string {
	if getenv == nil {
		getenv = os.Getenv
	}
	for _, name := range envKeys[provider] {
		if v := getenv(name); v != "" {
			return v
		}
	}
	return ""
}
