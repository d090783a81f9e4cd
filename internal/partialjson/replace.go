package partialjson

import (
	"encoding/json"
	"strings"
)

// Replace takes the complete arguments text a provider sends when a call
// ends, as pi-ai's ToolCallArgumentsStream.replace does. When text
// continues the text received so far, the missing piece is appended and
// returned as delta, with continued true (delta is "" when nothing was
// missing); otherwise the stream starts over with text, and continued is
// false. Either way args is the preview of text, as [ArgumentsStream.Append]
// returns it.
func (a *ArgumentsStream) Replace(text string) (delta string, continued bool, args json.RawMessage) {
	if rest, ok := strings.CutPrefix(text, a.text.String()); ok {
		return rest, true, a.Append(rest)
	}
	*a = ArgumentsStream{}
	return "", false, a.Append(text)
}
