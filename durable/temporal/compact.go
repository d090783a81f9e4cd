package temporal

import (
	"context"
	"errors"
	"time"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/compaction"
	"github.com/pi-go/agentcore/hold"
	"github.com/pi-go/agentcore/models"
	"go.temporal.io/sdk/workflow"
)

// compactChange is the GetVersion change ID of compaction between runs:
// histories recorded before a worker compacted replay without it.
const compactChange = "compact-between-runs"

// withLayers returns o with its Layers applied where each part runs (see
// [Options].Layers): hooks composed with o's, StreamFn and Tools wrapped,
// a Compactor's settings as o's Compaction.
func withLayers(o Options) Options {
	var layers []agentcore.Layer
	for _, l := range o.Layers {
		switch l := l.(type) {
		case *compaction.Compactor:
			if co := l.Options(); o.Compaction == nil && !co.Manual {
				o.Compaction = &co.Settings
			}
		case *hold.Gate:
			if o.Hold == nil {
				ho := l.Options()
				o.Hold = &ho
			}
		default:
			layers = append(layers, l)
		}
	}
	if len(layers) == 0 {
		return o
	}
	st := agentcore.NewStack(layers, o.Hooks)
	fn, ferr := st.StreamFn(o.StreamFn)
	tools, terr := st.Tools(o.Tools)
	if err := errors.Join(st.Err(), ferr, terr); err != nil {
		o.layerErr = err // every model request fails with it
		return o
	}
	o.Hooks, o.StreamFn, o.Tools = st.Hooks(), fn, tools
	return o
}

// withCompaction returns o with its ConvertToLLM showing summaries to the
// model as compaction's Agent does, when o compacts.
func withCompaction(o Options) Options {
	if o.Compaction == nil {
		return o
	}
	next := o.ConvertToLLM
	o.ConvertToLLM = func(ctx context.Context, m []agentcore.Message) ([]agentcore.Message, error) {
		m = compaction.ConvertMessages(m)
		if next != nil {
			return next(ctx, m)
		}
		return agentcore.DefaultConvertToLLM(ctx, m)
	}
	return o
}

// compact compacts the idle session's transcript when its context is past
// the threshold of [Options.Compaction] for the session's model: the cut
// ([compaction.Prepare]) and the replacement are workflow code, each
// summary call is a model activity. A compaction that fails, or whose
// transcript changed while its summary was written (a prompt, an edit, a
// reset), leaves the transcript as it is.
func (ss *session) compact(ctx workflow.Context) {
	st := &ss.st
	if ss.opts.Compaction == nil || st.Run != nil || ss.closing {
		return
	}
	model := ss.settings().Model
	set := ss.opts.Compaction.ForWindow(model.ContextWindow)
	llm, err := ss.opts.ConvertToLLM(context.Background(), st.Transcript)
	if err != nil {
		llm = compaction.ConvertMessages(st.Transcript)
	}
	if !compaction.ShouldCompact(models.EstimateContextTokens(llm).Tokens, model.ContextWindow, set) {
		return
	}
	if workflow.GetVersion(ctx, compactChange, workflow.DefaultVersion, 1) == workflow.DefaultVersion {
		return
	}
	p, err := compaction.Prepare(st.Transcript, set.KeepRecentTokens, nil)
	if err != nil {
		return
	}
	origin, length := st.Origin, len(st.Transcript)
	sum, err := compaction.Summarize(context.Background(), p, compaction.SummaryRequest{
		Model: model, StreamFn: ss.summaryStream(ctx), Settings: set,
		Now: func() time.Time { return workflow.Now(ctx) },
	})
	if err != nil || st.Run != nil || st.Origin != origin || len(st.Transcript) != length {
		return
	}
	st.replaceTranscript(p.Messages(sum))
}

// summaryStream is the stream function of a compaction's summary calls:
// each call is a model activity, awaited on the workflow's goroutine
// (compaction.Summarize calls it there), its answer streamed as one final
// event.
func (ss *session) summaryStream(ctx workflow.Context) agentcore.StreamFn {
	return func(_ context.Context, model agentcore.Model, req agentcore.Request, opts agentcore.StreamOptions) agentcore.AssistantStream {
		in := modelInput{Model: model, Messages: req.Messages, MaxTokens: opts.MaxTokens}
		actx := workflow.WithActivityOptions(ctx, activityOptions(ss.opts.ModelActivity))
		var out response
		err := workflow.ExecuteActivity(actx, ss.opts.name()+".model", in).Get(ctx, &out)
		msg := out.Message
		switch {
		case err != nil:
			msg = failedResponse(model, err.Error(), millis(workflow.Now(ctx)))
		case msg == nil:
			msg = failedResponse(model, agentcore.ErrStreamIncomplete.Error(), millis(workflow.Now(ctx)))
		}
		return func(yield func(agentcore.AssistantEvent) bool) {
			if msg.StopReason.Failed() {
				yield(&agentcore.ErrorEvent{Reason: msg.StopReason, Message: msg})
				return
			}
			yield(&agentcore.DoneEvent{Reason: msg.StopReason, Message: msg})
		}
	}
}
