// Package structured turns an agent run into a Go value: the model ends
// the run by calling a final-answer tool whose arguments are a T, the
// loop's validator checks them, and the run returns the T.
//
//	type Ticket struct {
//		Title    string   `json:"title"`
//		Priority string   `json:"priority" jsonschema:"enum=low,enum=high"`
//		Labels   []string `json:"labels,omitempty"`
//	}
//
//	answer := structured.New[Ticket](structured.Options[Ticket]{})
//	agent := agentcore.New(agentcore.Options{Model: model, Tools: tools, Layers: []agentcore.Layer{answer}})
//	ticket, err := answer.Prompt(ctx, agent, "File a ticket for: "+report)
//
// It works on every provider, since it needs nothing but tool calls: it
// is pi's answer to "how do I get structured output" (a final tool with
// terminate) made a layer. Where the provider has a native
// structured-output mode and the model is known to support it, the layer
// uses that instead (see Native modes).
//
// # The answer
//
// [New] reflects T's JSON Schema as [agentcore.NewTool] does (json tags
// name the properties; a field without omitempty is required; jsonschema
// tags add descriptions, enums and bounds; pointers, nested structs,
// slices and maps work as encoding/json has them) and makes the tool
// final_answer ([Options].Name) from it. The [Answer] is an
// [agentcore.Layer]: its PrepareRequest hook adds the tool to each run's
// working context when the run's tools lack it, declared to the model by
// a system message at the end of that context, so the Agent's tools and
// transcript stay the program's (list [Answer.Tool] among the Agent's
// tools to have the transcript declare it instead). A call with valid
// arguments executes as a tool whose result's Details hold the T and whose
// Terminate ends the run; the FinishTurn hook ends the run too when the
// call shared its batch with other tools.
//
// [Answer.Prompt] runs a prompt and returns the T; [Answer.Result] reads
// the T from the messages of any run, live or decoded from JSON.
//
// # Runs that ask
//
// On an Agent the layer acts only on the runs that ask for the answer:
// those of [Answer.Prompt] and [Answer.PromptMessages], and those started
// with a ctx marked by [Answer.Ask] (agent.Continue(answer.Ask(ctx)) after
// a held call was decided). A plain [agentcore.Agent.Prompt] on the same
// Agent is left alone: no tool offered, no nudge after prose. A run that
// asks and ends without an accepted answer fails: its Prompt or Continue
// returns the [*Error]. Under [agentcore.RunLoop] and on surfaces without
// an Agent (a durable workflow), whose loop serves the answer alone, every
// run asks.
//
// # Repair
//
// Arguments that fail validation (or are not JSON, or do not decode) are
// an error result of the tool, whose text is the validator's (the field,
// what is wrong, the arguments received): the model reads it and tries
// again, up to [Options].Repairs times. A model that ends a turn without
// calling any tool, answering in prose, is told to call the tool, up to
// [Options].Nudges times (FinishTurn answers TurnContinue and
// PrepareNextTurn adds the message). The nudge, and the repair of a
// native answer, are the layer's words, not the user's: pi's custom
// messages of [CustomType], which the model reads as user messages (the
// layer's ConvertToLLM hook), a session file keeps as custom_message
// entries and the agui handler does not show. Past either bound
// the run ends and Prompt or Result return an [*Error], wrapping
// [ErrInvalidAnswer] or [ErrNoAnswer], with the last attempt (arguments
// and the validator's words, or the prose) and the run's messages. A run
// that failed (a model error, an abort) returns its
// [*agentcore.RunError] instead.
//
// The hooks keep no state: they judge each turn from the messages the run
// added so far, so an Answer serves any number of Agents and concurrent
// RunLoop runs, and a run replayed from its messages is judged the same.
//
// # Native modes
//
// [Options].Mode chooses, per request, between the tool and the
// provider's native structured-output mode: OpenAI Chat Completions'
// response_format json_schema, the Responses API's text.format (OpenAI
// and Azure), Gemini's responseMimeType application/json with
// responseJsonSchema (Google AI and Vertex), Anthropic's
// output_config.format. [ModeAuto], the default, uses the native mode
// for the models [NativeSupported] names from the catalog's facts (OpenAI
// and Azure GPT and o-series models with structured outputs, Gemini 3 and
// later) and the tool for the rest; [ModeNative] uses it on every model
// of those APIs (Claude's structured outputs only this way: the catalog
// does not say which Claude models take them); [ModeTool] never.
//
// In the native mode the layer offers no tool: its stream function
// wrapper sets [agentcore.StreamOptions].ResponseFormat to T's schema
// (every object closed with additionalProperties false; Strict when
// every object requires all its fields and none is a map, as OpenAI's
// strict mode wants), and the answer
// is the model's final text: a turn that ends without tool calls. The
// text (a Markdown code fence around it is taken off) is validated by the
// same validator as the tool's arguments and decoded into T; an invalid
// answer goes back as a message of the layer in the validator's words
// ([DefaultRepair]), within [Options].Repairs, and OnPartial follows the
// text's deltas. The model may still call the run's other tools first.
// The decision reads only the model's API, provider and ID, which each
// assistant message carries, so a transcript is judged the same later.
// [agentcore.StreamProxy] does not forward the response format: use
// [ModeTool] through a proxy.
//
// # Partial values
//
// [Options].OnPartial gets the value the answer's arguments show while
// they stream (read by the partial-JSON parser the providers use), so a
// UI fills a form as the model writes it. It is a listener of the run:
// called on the run's goroutine, in order, the run waiting for it; each
// value is a fresh T, the callback's to keep. Fields not written yet are
// zero, and nothing is validated until the call ends.
//
// # RunLoop, AG-UI, durable sessions
//
// Under [agentcore.RunLoop], put the Answer in [agentcore.LoopConfig].Layers
// and read the value with Result from the messages [agentcore.LoopRun.Wait]
// returns (or those of the agent_end event).
//
// Through the agui handler, ask with every request by wrapping the
// handler:
//
//	http.Handle("/agent", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
//		h.ServeHTTP(w, r.WithContext(answer.Ask(r.Context())))
//	}))
//
// A run whose answer failed then ends with RUN_ERROR (the [*Error]'s
// text). The value is the client's state: the answer's
// call streams to the page as TOOL_CALL_ARGS like any call (a native
// answer as the text of an assistant message), and a program
// that wants a form filled calls agui.SetState with its ctx from OnPartial
// (the listener's ctx is the run's) and, after the run, the handler's
// OnTranscript hands the transcript Result reads the value from.
//
// In a durable session the layer's hooks apply inside the workflow only
// as far as the session applies hooks there, which requires them to be
// deterministic: these are (they read only the run's messages). The
// final-answer tool, which the hooks add to the run, executes in the
// workflow (it is pure), and the value is in the session's transcript,
// read with Result from its messages. OnPartial is a listener, which a
// session does not apply.
package structured
