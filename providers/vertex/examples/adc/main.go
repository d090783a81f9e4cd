// Command adc asks a Gemini model on Vertex AI one question with
// Application Default Credentials: the token comes from
// golang.org/x/oauth2/google, which finds the credentials of
// `gcloud auth application-default login`, GOOGLE_APPLICATION_CREDENTIALS
// or the metadata server, and refreshes it as it expires. It is a module
// of its own so that agentcore depends on no Google library.
//
//	GOOGLE_CLOUD_PROJECT=my-project GOOGLE_CLOUD_LOCATION=us-central1 go run . "Why is the sky blue?"
package main

import (
	"context"
	"fmt"
	"os"
	"strings"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/google"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/providers/vertex"
)

// scope is the OAuth2 scope Vertex AI takes.
const scope = "https://www.googleapis.com/auth/cloud-platform"

func main() {
	ctx := context.Background()
	ts, err := google.DefaultTokenSource(ctx, scope)
	if err != nil {
		fmt.Fprintln(os.Stderr, "no Application Default Credentials:", err)
		os.Exit(1)
	}
	answer, err := ask(ctx, vertex.Options{Token: Token(ts)}, strings.Join(os.Args[1:], " "))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(answer)
}

// Token adapts an OAuth2 token source to [vertex.Options.Token]. The
// source is called on the stream's goroutine, once per request; an
// oauth2.ReuseTokenSource (as DefaultTokenSource returns) refreshes the
// token only when it expires.
func Token(ts oauth2.TokenSource) func(context.Context) (string, error) {
	return func(context.Context) (string, error) {
		t, err := ts.Token()
		if err != nil {
			return "", err
		}
		return t.AccessToken, nil
	}
}

// ask runs one prompt on Gemini 2.5 Flash through Vertex AI with opts
// and returns the answer.
func ask(ctx context.Context, opts vertex.Options, prompt string) (string, error) {
	agent := agentcore.New(agentcore.Options{
		Model:    agentcore.Model{ID: "gemini-2.5-flash", Provider: "google-vertex", API: "google-vertex", Reasoning: true, Input: []string{"text", "image"}, MaxTokens: 8192},
		StreamFn: vertex.StreamFn(opts),
	})
	if err := agent.Prompt(ctx, prompt); err != nil {
		return "", err
	}
	msgs := agent.State().Messages
	last, ok := msgs[len(msgs)-1].(*agentcore.AssistantMessage)
	if !ok {
		return "", fmt.Errorf("no answer")
	}
	if last.ErrorMessage != "" {
		return "", fmt.Errorf("%s", last.ErrorMessage)
	}
	return last.Text(), nil
}
