package bedrock

import "encoding/json"

// wireRequest is the JSON body of a ConverseStream request (the model ID
// travels in the URL).
type wireRequest struct {
	Messages                     []wireMessage   `json:"messages"`
	System                       []contentBlock  `json:"system,omitempty"`
	InferenceConfig              inferenceConfig `json:"inferenceConfig"`
	ToolConfig                   *toolConfig     `json:"toolConfig,omitempty"`
	AdditionalModelRequestFields json.RawMessage `json:"additionalModelRequestFields,omitempty"`
}

type inferenceConfig struct {
	MaxTokens   int      `json:"maxTokens,omitempty"`
	Temperature *float64 `json:"temperature,omitempty"`
}

type wireMessage struct {
	Role    string         `json:"role"`
	Content []contentBlock `json:"content"`
}

// contentBlock is one member of Bedrock's ContentBlock union (and of the
// system and tool-result unions, which share its members): exactly one
// field is set.
type contentBlock struct {
	Text             *string           `json:"text,omitempty"`
	Image            *imageBlock       `json:"image,omitempty"`
	ToolUse          *toolUseBlock     `json:"toolUse,omitempty"`
	ToolResult       *toolResultBlock  `json:"toolResult,omitempty"`
	ReasoningContent *reasoningContent `json:"reasoningContent,omitempty"`
	CachePoint       *cachePoint       `json:"cachePoint,omitempty"`
}

type imageBlock struct {
	Format string `json:"format"`
	Source struct {
		Bytes []byte `json:"bytes"` // base64 on the wire
	} `json:"source"`
}

type toolUseBlock struct {
	ToolUseID string          `json:"toolUseId"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
}

type toolResultBlock struct {
	ToolUseID string         `json:"toolUseId"`
	Content   []contentBlock `json:"content"`
	Status    string         `json:"status"`
}

type reasoningContent struct {
	ReasoningText   *reasoningText `json:"reasoningText,omitempty"`
	RedactedContent []byte         `json:"redactedContent,omitempty"`
}

type reasoningText struct {
	Text      string `json:"text"`
	Signature string `json:"signature,omitempty"`
}

type cachePoint struct {
	Type string `json:"type"`
	TTL  string `json:"ttl,omitempty"`
}

type toolConfig struct {
	Tools []toolSpecBlock `json:"tools"`
}

type toolSpecBlock struct {
	ToolSpec toolSpec `json:"toolSpec"`
}

type toolSpec struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	// InputSchema holds the tool's parameters; a tool without any has an
	// empty inputSchema, as the AWS SDK writes pi-ai's {json: undefined}.
	InputSchema struct {
		JSON json.RawMessage `json:"json,omitempty"`
	} `json:"inputSchema"`
}

func textBlock(s string) contentBlock { return contentBlock{Text: &s} }
