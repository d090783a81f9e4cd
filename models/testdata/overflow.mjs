// Records what pi-ai 1.6.0's isContextOverflow answers for assistant
// messages of every provider it lists, for ordinary errors, and at the
// edges of its usage checks:
//
//   NODE_MODULES_DIR=/work/oracle/node_modules node overflow.mjs > overflow.pi.json
import { join } from "node:path";

const modules = process.env.NODE_MODULES_DIR ?? "/work/oracle/node_modules";
const { isContextOverflow } = await import(join(modules, "@earendil-works/pi-ai/dist/utils/overflow.js"));

const usage = (input = 0, output = 0, cacheRead = 0) => ({
	input, output, cacheRead, cacheWrite: 0, totalTokens: input + output + cacheRead,
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
});
const msg = (provider, api, stopReason, errorMessage, u = usage()) => ({
	role: "assistant", content: [], api, provider, model: "m", usage: u, stopReason,
	...(errorMessage === undefined ? {} : { errorMessage }), timestamp: 1700000000000,
});
const err = (provider, api, text) => msg(provider, api, "error", text);

const cases = [];
const add = (name, message, contextWindow = 0) => cases.push({ name, contextWindow, message });

// Error texts of the providers pi-ai lists.
const errors = [
	["anthropic", "anthropic-messages", "prompt is too long: 213462 tokens > 200000 maximum"],
	["anthropic", "anthropic-messages", '413 {"error":{"type":"request_too_large","message":"Request exceeds the maximum size"}}'],
	["anthropic", "anthropic-messages", "Anthropic API error (400): Prompt is too long"],
	["openai", "openai-completions", "Your input exceeds the context window of this model. Please adjust your input and try again."],
	["openai", "openai-responses", "Your input exceeds the context window of this model. Please adjust your input and try again."],
	["openai", "openai-completions", "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens."],
	["litellm", "openai-completions", "Requested token count exceeds the model's maximum context length of 131072 tokens"],
	["litellm", "openai-completions", "Requested token count exceeds the model's maximum context length of 131,072 token"],
	["litellm", "openai-completions", "litellm.ContextWindowExceededError: litellm.BadRequestError: Context Window exceeded for given call."],
	["vllm", "openai-completions", "Input length (265330) exceeds model's maximum context length (262144)."],
	["vllm", "openai-completions", "Input length (265330) exceeds models maximum context length\t(262,144)."],
	["vllm", "openai-completions", "Input length (265330) exceeds maximum context length (262144)."],
	["vllm", "openai-completions", "Input length exceeds the maximum context length"],
	["google", "google-generative-ai", "The input token count (1196265) exceeds the maximum number of tokens allowed (1048575)."],
	["google", "google-generative-ai", "The input token count (1196265)\nexceeds the maximum number of tokens allowed (1048575)."],
	["google", "google-generative-ai", "The input token count (1196265)\rexceeds the maximum number of tokens allowed (1048575)."],
	["google", "google-generative-ai", "The input token count (1196265)\u2028exceeds the maximum number of tokens allowed."],
	["xai", "openai-completions", "This model's maximum prompt length is 131072 but the request contains 537812 tokens."],
	["groq", "openai-completions", "Please reduce the length of the messages or completion."],
	["openrouter", "openai-completions", "This endpoint's maximum context length is 200000 tokens. However, you requested about 250000 tokens."],
	["openrouter", "openai-completions", "Input length 300000 exceeds the maximum allowed input length of 262,144 tokens."],
	["together", "openai-completions", "The input (140000 tokens) is longer than the model's context length (131072 tokens)."],
	["together", "openai-completions", "The input (140000 tokens) is longer than the models context length (131072 tokens)."],
	["llama.cpp", "openai-completions", "the request exceeds the available context size, try increasing it"],
	["lmstudio", "openai-completions", "Trying to keep the first 9000 tokens when context the overflows. However, the model is loaded with context length of 4096 tokens, which is not enough. tokens to keep from the initial prompt is greater than the context length"],
	["github-copilot", "openai-completions", "prompt token count of 140000 exceeds the limit of 128000"],
	["github-copilot", "openai-completions", 'github-copilot API error (413): {"message":"failed to parse request","code":""}'],
	["github-copilot", "openai-responses", "413 Request Entity Too Large"],
	["github-copilot", "openai-responses", "413: Request Entity Too Large"],
	["github-copilot", "openai-responses", "413"],
	["github-copilot", "openai-responses", "413\u00a0payload"],
	["github-copilot", "openai-responses", "413\vpayload"],
	["github-copilot", "openai-responses", "4130 something"],
	["github-copilot", "openai-responses", "error 413: too big"],
	["openai", "openai-completions", 'OpenAI API error (400): {"error":{"message":"status 413 seen upstream"}}'],
	["minimax", "openai-completions", "invalid params, context window exceeds limit (2013)"],
	["kimi-coding", "anthropic-messages", "Your request exceeded model token limit: 262144 (requested: 300000)"],
	["ds4", "openai-completions", "Prompt has 70,000 tokens, but the configured context size is 65,536 tokens"],
	["ds4", "openai-completions", "Prompt has 1 token, but the configured context size is 1 token"],
	["cerebras", "openai-completions", "400 status code (no body)"],
	["cerebras", "openai-completions", "413 status code (no body)"],
	["cerebras", "openai-completions", "400 (no body)"],
	["cerebras", "openai-completions", "400\u3000status code\u00a0(no body)"],
	["cerebras", "openai-completions", "401 status code (no body)"],
	["openai", "openai-completions", "400 status code (no body)"],
	["mistral", "mistral-conversations", "Prompt contains 140000 tokens and 0 draft tokens, too large for model with 131072 maximum context length"],
	["zai", "openai-completions", '{"code":"1261","message":"Prompt too long"}'],
	["zai", "openai-completions", '{"code":"1261","message":"Prompt exceeds max length"}'],
	["zai", "openai-completions", "finish_reason: model_context_window_exceeded"],
	["ollama", "openai-completions", "prompt too long; exceeded max context length by 2000 tokens"],
	["ollama", "openai-completions", "prompt too long; exceeded context length by 2000 tokens"],
	["alibaba", "openai-completions", "Range of input length should be [1, 98304]"],
	["amazon-bedrock", "bedrock-converse-stream", "ValidationException: Input is too long for requested model."],
	["x", "openai-completions", "context_length_exceeded"],
	["x", "openai-completions", "Context length exceeded"],
	["x", "openai-completions", "Too many tokens in the request"],
	["x", "openai-completions", "Token limit exceeded"],
	// Not overflows: rate limits, throttling, ordinary failures.
	["amazon-bedrock", "bedrock-converse-stream", "ThrottlingException: Too many tokens, please wait before trying again."],
	["amazon-bedrock", "bedrock-converse-stream", "Throttling error: Too many tokens, please wait before trying again."],
	["amazon-bedrock", "bedrock-converse-stream", "Service unavailable: prompt is too long"],
	["openai", "openai-completions", "Rate limit reached: too many tokens per minute"],
	["openai", "openai-completions", "429 Too Many Requests: token limit exceeded"],
	["anthropic", "anthropic-messages", "Anthropic API error (529): overloaded_error"],
	["openai", "openai-responses", "OpenAI API error (502): 502 Bad Gateway"],
	["openai", "openai-completions", "Connection error."],
	["openai", "openai-completions", "Request was aborted"],
	["google", "google-generative-ai", "API key not valid. Please pass a valid API key."],
	["openai", "openai-completions", "Invalid 'messages[2].content': string too long."],
	// Case folding: only ASCII letters fold.
	["anthropic", "anthropic-messages", "PROMPT IS TOO LONG"],
	["anthropic", "anthropic-messages", "prompt is too \u017Fong"],
	["anthropic", "anthropic-messages", "prompt i\u017F too long"],
	["openai", "openai-completions", "token limit exceeded".replace("k", "\u212A")],
	["openai", "openai-completions", "R\u0041TE LIMIT: prompt is too long"],
	["", "", "prompt is too long"],
];
for (const [provider, api, text] of errors) add(`${provider || "none"}: ${text}`, err(provider, api, text));

// An overflow text on a response that did not fail is not an error overflow.
add("stop with an overflow text", msg("anthropic", "anthropic-messages", "stop", "prompt is too long"));
add("aborted with an overflow text", msg("anthropic", "anthropic-messages", "aborted", "prompt is too long"));
add("error without a text", msg("anthropic", "anthropic-messages", "error", ""));

// Silent overflow (z.ai) and the length stop with no output (Xiaomi MiMo).
const windows = [0, 1, 100, 128000, 200000, -5];
const usages = [
	["zero", usage()],
	["input over", usage(128001)],
	["input equal", usage(128000)],
	["input+cache over", usage(100000, 10, 28001)],
	["input 99%", usage(126720)],
	["input just under 99%", usage(126719)],
	["99% with output", usage(126720, 1)],
	["200k over", usage(200001, 5)],
	["input 99 of 100", usage(99)],
	["input 98 of 100", usage(98, 0, 0)],
	["cache only", usage(0, 0, 200000)],
];
for (const stop of ["stop", "length", "toolUse", "error", "aborted"]) {
	for (const [uname, u] of usages) {
		for (const w of windows) {
			add(`${stop} ${uname} window ${w}`, msg("zai", "openai-completions", stop, undefined, u), w);
		}
	}
}

const out = cases.map((c) => ({ ...c, overflow: isContextOverflow(c.message, c.contextWindow || undefined) }));
// -5 is passed as it is, to check that any non-zero window counts.
for (const c of out) if (c.contextWindow < 0) c.overflow = isContextOverflow(c.message, c.contextWindow);
console.log("[\n" + out.map((c) => JSON.stringify(c)).join(",\n") + "\n]");
