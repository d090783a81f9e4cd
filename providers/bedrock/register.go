package bedrock

import "github.com/pi-go/agentcore/providers"

// Register makes [StreamFn] of opts the stream function of [API] in reg,
// so that reg's [providers.Registry.Stream] dispatches Bedrock models here
// beside the built-in providers (the providers package cannot import this
// module, which brings the AWS credential chain).
func Register(reg *providers.Registry, opts Options) {
	reg.Register(API, StreamFn(opts))
}
