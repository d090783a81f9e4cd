// Package vertex is a client of Gemini models on Google Cloud's Vertex AI
// for agentcore: [StreamFn] returns the [agentcore.StreamFn] that puts a
// model whose API is "google-vertex" (pi-ai's Vertex models, provider
// "google-vertex") behind an [agentcore.Agent]. It behaves as pi-ai 1.6's
// google-vertex provider does: the same URL, headers and body for a
// transcript, the same events and final message for a response, the same
// error texts.
//
// It is the Gemini codec of package providers/google on Vertex's
// endpoints; what that package's doc says of the request, the response,
// the limits and hostile servers holds here, with the differences below.
//
// # Use
//
// With Application Default Credentials, the token comes from the caller
// (this module depends on no Google library; the example module
// providers/vertex/examples/adc uses golang.org/x/oauth2/google):
//
//	ts, _ := google.DefaultTokenSource(ctx, "https://www.googleapis.com/auth/cloud-platform")
//	agent := agentcore.New(agentcore.Options{
//		Model: agentcore.Model{ID: "gemini-2.5-flash", Provider: "google-vertex", API: "google-vertex", Reasoning: true},
//		StreamFn: vertex.StreamFn(vertex.Options{
//			Project: "my-project", Location: "us-central1",
//			Token: func(context.Context) (string, error) {
//				t, err := ts.Token()
//				if err != nil {
//					return "", err
//				}
//				return t.AccessToken, nil
//			},
//		}),
//	})
//
// With a Vertex API key (GOOGLE_CLOUD_API_KEY, which package providers
// reads for provider "google-vertex"), no token is needed.
//
// # Endpoint
//
// A request with a key goes to Vertex's express endpoint,
// https://aiplatform.googleapis.com/v1/publishers/google/models/ID:streamGenerateContent?alt=sse,
// the key as x-goog-api-key. One without a key goes to its project's
// location: https://LOCATION-aiplatform.googleapis.com/v1/projects/PROJECT/locations/LOCATION/publishers/google/models/ID:...
// (aiplatform.googleapis.com for "global", aiplatform.LOCATION.rep.googleapis.com
// for "us" and "eu"), with [Options.Token]'s bearer. The project is
// [Options.Project], else GOOGLE_CLOUD_PROJECT, else GCLOUD_PROJECT; the
// location [Options.Location], else GOOGLE_CLOUD_LOCATION; a request
// without them fails unsent ([ErrNoProject], [ErrNoLocation]), as does one
// with neither key nor Token ([ErrNoCredentials]). [Options.BaseURL] (or a
// model BaseURL without "{location}") replaces either endpoint. See
// [Options.ResolveURL]. A key or token goes to the endpoint's origin only:
// a redirect to another origin is refused
// ([agentcore.ErrCrossOriginRedirect]).
//
// # Differences from the Gemini API
//
// As in pi-ai's Vertex module: a stream without a finish reason fails
// with [NoFinishReasonText]; Gemini 2.5 Flash-Lite takes 2.5 Flash's
// default thinking budgets; the message's API is the model's,
// "google-vertex", so a transcript made on the Gemini API is replayed as
// another API's (its thinking and signatures dropped).
package vertex
