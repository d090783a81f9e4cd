// Package modelflag is how the example programs that talk to a model
// take it, and show what it answered: -model PROVIDER/ID from pi-ai's
// catalog (providers.LookupModel), -base-url, the environment variables
// that stand in for them and hold the keys, all listed by -h; a
// response's usage and its error as one line each.
package modelflag

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/providers"
)

// The environment variables that stand in for the flags.
const (
	// ModelEnv is the model when -model is not given.
	ModelEnv = "CHAT_MODEL"
	// BaseURLEnv is the server when -base-url is not given.
	BaseURLEnv = "BASE_URL"
)

// environment is the part of -h that lists the variables every program
// reads.
const environment = `
Environment:
  CHAT_MODEL   the model, PROVIDER/ID, when -model is not given
  BASE_URL     the server, when -base-url is not given
  the key of the model's provider: ANTHROPIC_API_KEY, GEMINI_API_KEY,
  OPENAI_API_KEY, AZURE_OPENAI_API_KEY, GOOGLE_CLOUD_API_KEY,
  MISTRAL_API_KEY, OPENROUTER_API_KEY, ... (pi-ai's variables; a local
  server takes OPENAI_API_KEY, or none)
`

// Flags are the model flags of one program, filled by its FlagSet's
// Parse.
type Flags struct {
	// Model is -model: PROVIDER/ID, "" when not given.
	Model string
	// BaseURL is -base-url, "" when not given.
	BaseURL string
}

// Register adds -model and -base-url to fs and makes its usage (-h)
// print synopsis, the flags, then the environment variables: those of
// every program and more, the program's own (lines of text, "" for
// none).
func Register(fs *flag.FlagSet, synopsis, more string) *Flags {
	f := &Flags{}
	fs.StringVar(&f.Model, "model", "", "the model, PROVIDER/ID from pi-ai's catalog, such as anthropic/claude-sonnet-4-5 or ollama/qwen3 with -base-url (default: $"+ModelEnv+")")
	fs.StringVar(&f.BaseURL, "base-url", "", "the server to send requests to, such as http://localhost:11434/v1 (default: the model's, or $"+BaseURLEnv+")")
	fs.Usage = func() {
		out := fs.Output()
		fmt.Fprintf(out, "Usage: %s\n\nFlags:\n", synopsis)
		fs.PrintDefaults()
		fmt.Fprint(out, environment+more)
	}
	return f
}

// Parse parses args with fs, made with flag.ContinueOnError. With -h or
// -help it has printed the usage and help is true: the program exits 0.
// A bad flag is an error, the usage printed.
func Parse(fs *flag.FlagSet, args []string) (help bool, err error) {
	err = fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		return true, nil
	}
	return false, err
}

// Getenv returns getenv (nil means os.Getenv) with the flags standing
// in for their variables: [ModelEnv] reads -model and [BaseURLEnv]
// -base-url when they are given.
func (f *Flags) Getenv(getenv func(string) string) func(string) string {
	if getenv == nil {
		getenv = os.Getenv
	}
	return func(k string) string {
		switch {
		case k == ModelEnv && f.Model != "":
			return f.Model
		case k == BaseURLEnv && f.BaseURL != "":
			return f.BaseURL
		}
		return getenv(k)
	}
}

// lookupTimeout bounds the questions [Lookup] asks a local server.
const lookupTimeout = 10 * time.Second

// Lookup returns the model env names ([ModelEnv]) at the server it
// names ([BaseURLEnv]), from pi-ai's catalog (see providers.LookupModel);
// ok is false when none is named, for the program's default. A model of
// a local server comes with the context window the server reports, asked
// for within 10 seconds; one whose server reports none is returned
// without a window (a program that compacts then never does).
func Lookup(env func(string) string) (m agentcore.Model, ok bool, err error) {
	name := env(ModelEnv)
	if name == "" {
		return agentcore.Model{}, false, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), lookupTimeout)
	defer cancel()
	m, err = providers.LookupModel(ctx, name, env(BaseURLEnv))
	if errors.Is(err, providers.ErrNoContextWindow) {
		err = nil
	}
	return m, err == nil, err
}

// Usage is a response's usage as one line: the tokens in (cached ones
// included) and out, then the cost when the model has prices, such as
// "12 tokens in, 5 out: $0.000081". It is "" when the server reported
// none.
func Usage(u agentcore.Usage) string {
	in := u.Input + u.CacheRead + u.CacheWrite
	if in == 0 && u.Output == 0 {
		return ""
	}
	s := fmt.Sprintf("%d tokens in, %d out", in, u.Output)
	if u.Cost.Total > 0 {
		s += fmt.Sprintf(": $%.6f", u.Cost.Total)
	}
	return s
}

// connectionError starts the text of a request that got no response,
// as pi-ai words it ("Connection error." and, in Go, the reason).
const connectionError = "Connection error.: "

// ErrorText is a failed response's error as one sentence: the
// provider's text, but a connection error reads "Connection error: "
// and the reason, not pi-ai's "Connection error.: ".
func ErrorText(m *agentcore.AssistantMessage) string {
	if reason, ok := strings.CutPrefix(m.ErrorMessage, connectionError); ok {
		return "Connection error: " + reason
	}
	return m.ErrorMessage
}
