package models

import (
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/tokens"
)

// overflowTextLimit is how much of an error message [IsContextOverflow]
// reads: the providers' overflow texts sit at the start of their errors,
// and a provider that returns a megabyte of error body must not make the
// check slow.
const overflowTextLimit = 16 << 10

// The patterns below are matched against an error message with its ASCII
// letters lowered, which is how a case-insensitive JavaScript expression
// without the u flag compares ASCII patterns: no other character folds to
// an ASCII letter. jsSpace is JavaScript's \s and jsDot its '.', which Go's
// \s and '.' are not.
const (
	jsSpace = `[\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}]`
	jsDot   = `[^\n\r\x{2028}\x{2029}]`
)

// overflowPatterns are the error texts, by provider, that say the request
// did not fit the model's context window or the provider's size limit.
var overflowPatterns = []string{
	`prompt (?:is )?too long`,               // Anthropic, z.ai
	`prompt exceeds max length`,             // z.ai (CN endpoint)
	`request_too_large`,                     // Anthropic, request bytes (413)
	`input is too long for requested model`, // Amazon Bedrock
	`exceeds the context window`,            // OpenAI Completions and Responses
	`exceeds (?:the )?(?:model'?s )?maximum context length(?: of [\d,]+ tokens?|` + jsSpace + `*\([\d,]+\))`, // OpenAI-compatible proxies
	`context window exceeded`,                                                        // LiteLLM pre-call check
	`input token count` + jsDot + `*exceeds the maximum`,                             // Google Gemini
	`maximum prompt length is \d+`,                                                   // xAI
	`reduce the length of the messages`,                                              // Groq
	`maximum context length is \d+ tokens`,                                           // OpenRouter
	`exceeds (?:the )?maximum allowed input length of [\d,]+ tokens?`,                // OpenRouter (Poolside)
	`input \(\d+ tokens\) is longer than the model'?s context length \(\d+ tokens\)`, // Together AI
	`exceeds the limit of \d+`,                                                       // GitHub Copilot
	`exceeds the available context size`,                                             // llama.cpp
	`greater than the context length`,                                                // LM Studio
	`context window exceeds limit`,                                                   // MiniMax
	`exceeded model token limit`,                                                     // Kimi For Coding
	`too large for model with \d+ maximum context length`,                            // Mistral
	`prompt has [\d,]+ tokens?, but the configured context size is [\d,]+ tokens?`,   // DS4
	`model_context_window_exceeded`,                                                  // z.ai finish reason as error text
	`prompt too long; exceeded (?:max )?context length`,                              // Ollama
	`range of input length should be`,                                                // DashScope (Qwen)
	`context[_ ]length[_ ]exceeded`,                                                  // generic
	`too many tokens`,                                                                // generic
	`token limit exceeded`,                                                           // generic
	`^(?:[\w -]+ api error \(413\):|413(?:` + jsSpace + `|:|$))`,                     // HTTP 413 from any provider
}

var (
	overflowRE = regexp.MustCompile(`(?:` + strings.Join(overflowPatterns, `)|(?:`) + `)`)
	// notOverflowRE are errors that may mention tokens but are not about
	// the context: throttling, rate limits, unavailable services.
	notOverflowRE = regexp.MustCompile(`^(?:throttling error|service unavailable):|rate limit|too many requests`)
	// cerebrasRE is Cerebras's overflow: a 400 or 413 with no body.
	cerebrasRE = regexp.MustCompile(`^4(?:00|13)` + jsSpace + `*(?:status code)?` + jsSpace + `*\(no body\)`)
)

// IsContextOverflow reports whether msg says its request did not fit the
// model's context, as pi-ai's isContextOverflow does. It recognizes three
// cases:
//
//   - an error ([agentcore.StopError]) whose ErrorMessage is one of the
//     overflow texts of the providers pi-ai lists (Anthropic, OpenAI
//     Completions and Responses, Gemini, xAI, Groq, GitHub Copilot's 413,
//     Cerebras's bodiless 400 or 413, Mistral, OpenRouter, Together,
//     llama.cpp, LM Studio, MiniMax, Kimi, DS4, DashScope, z.ai, Ollama,
//     LiteLLM, Amazon Bedrock) and is not a throttling or rate-limit error;
//   - a silent overflow: a response that stopped normally although its
//     input and cache-read tokens exceed contextWindow;
//   - a length stop with no output whose input and cache-read tokens fill
//     at least 99% of contextWindow.
//
// Only the first 16 KiB of ErrorMessage are read. A contextWindow of 0
// skips the last two checks.
func IsContextOverflow(msg agentcore.AssistantMessage, contextWindow int) bool {
	if msg.StopReason == agentcore.StopError && msg.ErrorMessage != "" {
		text := asciiLower(prefix(msg.ErrorMessage, overflowTextLimit))
		if !notOverflowRE.MatchString(text) &&
			(overflowRE.MatchString(text) || msg.Provider == "cerebras" && cerebrasRE.MatchString(text)) {
			return true
		}
	}
	if contextWindow == 0 {
		return false
	}
	input := tokens.Sum(msg.Usage.Input, msg.Usage.CacheRead)
	switch msg.StopReason {
	case agentcore.StopStop:
		return input > int64(contextWindow)
	case agentcore.StopLength:
		return msg.Usage.Output == 0 && float64(input) >= float64(contextWindow)*0.99
	}
	return false
}

// asciiLower returns s with its ASCII capitals lowered and every other
// character kept.
func asciiLower(s string) string {
	return strings.Map(func(r rune) rune {
		if 'A' <= r && r <= 'Z' {
			return r + ('a' - 'A')
		}
		return r
	}, s)
}

// prefix is s cut to at most n bytes, at a character boundary.
func prefix(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
