package google

import "encoding/json"

// The wire form of a generateContent request, as Google's SDK sends pi-ai's
// parameters. Field order is the SDK's, so that bodies read alike.

type wireRequest struct {
	Contents          []content        `json:"contents"`
	SystemInstruction *content         `json:"systemInstruction,omitempty"`
	Tools             []wireTool       `json:"tools,omitempty"`
	ToolConfig        *toolConfig      `json:"toolConfig,omitempty"`
	GenerationConfig  generationConfig `json:"generationConfig"`
}

// toolConfig sets how functions are called: "VALIDATED" when a tool is
// strict.
type toolConfig struct {
	FunctionCallingConfig struct {
		Mode string `json:"mode"`
	} `json:"functionCallingConfig"`
}

// content is one turn: role "user" or "model" and its parts.
type content struct {
	Parts []part `json:"parts"`
	Role  string `json:"role"`
}

// part is one part of a turn; exactly one of Text, InlineData,
// FunctionCall and FunctionResponse is set.
type part struct {
	FunctionCall     *functionCall     `json:"functionCall,omitempty"`
	FunctionResponse *functionResponse `json:"functionResponse,omitempty"`
	InlineData       *blob             `json:"inlineData,omitempty"`
	Text             *string           `json:"text,omitempty"`
	Thought          bool              `json:"thought,omitempty"`
	ThoughtSignature string            `json:"thoughtSignature,omitempty"`
}

type blob struct {
	MimeType string `json:"mimeType"`
	Data     string `json:"data"`
}

type functionCall struct {
	Args json.RawMessage `json:"args"`
	ID   string          `json:"id,omitempty"`
	Name string          `json:"name"`
}

type functionResponse struct {
	Name     string          `json:"name"`
	Response json.RawMessage `json:"response"`
	Parts    []part          `json:"parts,omitempty"`
	ID       string          `json:"id,omitempty"`
}

type wireTool struct {
	FunctionDeclarations []functionDeclaration `json:"functionDeclarations"`
}

type functionDeclaration struct {
	Name                 string          `json:"name"`
	Description          string          `json:"description"`
	ParametersJSONSchema json.RawMessage `json:"parametersJsonSchema,omitempty"`
}

type generationConfig struct {
	Temperature     *float64        `json:"temperature,omitempty"`
	MaxOutputTokens int             `json:"maxOutputTokens,omitempty"`
	ThinkingConfig  *thinkingConfig `json:"thinkingConfig,omitempty"`
	// ResponseMIMEType and ResponseJSONSchema ask for a JSON answer
	// (StreamOptions.ResponseFormat).
	ResponseMIMEType   string          `json:"responseMimeType,omitempty"`
	ResponseJSONSchema json.RawMessage `json:"responseJsonSchema,omitempty"`
}

// thinkingConfig is off ({"thinkingBudget":0}), a budget, or a level.
type thinkingConfig struct {
	IncludeThoughts bool   `json:"includeThoughts,omitempty"`
	ThinkingBudget  *int   `json:"thinkingBudget,omitempty"`
	ThinkingLevel   string `json:"thinkingLevel,omitempty"`
}

func textPart(s string) part { return part{Text: &s} }
