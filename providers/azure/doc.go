// Package azure is a client of Azure OpenAI's Responses API for
// agentcore: [StreamFn] returns the [agentcore.StreamFn] that puts a model
// whose API is "azure-openai-responses" (pi-ai's Azure models, provider
// "azure") behind an [agentcore.Agent]. It behaves as pi-ai 1.6's
// azure-openai-responses provider does: the same URL, headers and body
// for a transcript, the same events and final message for a response, the
// same error texts.
//
// It is the Responses codec of package providers/openairesponses with
// Azure's endpoint, authentication and deployment names; what that
// package's doc says of the request, the response, the limits and hostile
// servers holds here, with the differences below.
//
// # Use
//
//	agent := agentcore.New(agentcore.Options{
//		Model:         agentcore.Model{ID: "gpt-5-mini", Provider: "azure", API: "azure-openai-responses", Reasoning: true, Input: []string{"text", "image"}},
//		StreamFn:      azure.StreamFn(azure.Options{ResourceName: "my-resource"}),
//		StreamOptions: agentcore.StreamOptions{APIKey: os.Getenv("AZURE_OPENAI_API_KEY")},
//	})
//
// Through package providers, the same model needs no options: its
// dispatcher reads AZURE_OPENAI_API_KEY, and this package the endpoint
// variables below.
//
// # Endpoint
//
// Requests go to ROOT/responses?api-version=VERSION. The root is, in this
// order, [Options.BaseURL], AZURE_OPENAI_BASE_URL,
// https://NAME.openai.azure.com/openai/v1 for [Options.ResourceName] or
// AZURE_OPENAI_RESOURCE_NAME, or the model's BaseURL; none fails the
// request with [ErrNoBaseURL]. As pi-ai does, the root of an Azure host
// (*.openai.azure.com, *.cognitiveservices.azure.com, *.ai.azure.com) given
// bare, as /openai or as /openai/v1/responses becomes /openai/v1
// ([Options.ResolveBaseURL]). The version is [Options.APIVersion], else
// AZURE_OPENAI_API_VERSION, else "v1". [Options.Getenv] replaces the
// process environment.
//
// The body's model is the deployment's name: the model ID's entry in
// [Options.Deployments], else in AZURE_OPENAI_DEPLOYMENT_NAME_MAP
// ("gpt-5-mini=prod-mini,gpt-4.1=legacy"), else the model ID
// ([Options.ResolveDeployment]). The message keeps the model's ID.
//
// # Authentication
//
// A key (the request's [agentcore.StreamOptions.APIKey], else
// [Options.APIKey]) is sent as the api-key header. A request without one
// calls [Options.Token] for a Microsoft Entra ID token, sent as a bearer;
// with neither it fails unsent ("No API key for provider: azure"). Either
// goes to the endpoint's origin only: a redirect to another origin is
// refused ([agentcore.ErrCrossOriginRedirect]).
//
// # Differences from OpenAI's API
//
// As in pi-ai's Azure module: tools are declared strict unless the
// model's compat sets supportsStrictMode false; a SessionID is sent as
// prompt_cache_key whatever the CacheRetention, with no session headers
// and no cache retention; max_output_tokens is sent whenever there is a
// cap; no service tier is asked for or priced. Refusals read "Azure
// OpenAI API error (STATUS): ..." ([ErrorName]), and a stream without a
// stop reason fails with [NoStopReasonText].
package azure
