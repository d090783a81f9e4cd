module github.com/pi-go/agentcore/providers/vertex/examples/adc

go 1.26.0

require (
	github.com/pi-go/agentcore v0.1.0
	golang.org/x/oauth2 v0.36.0
)

require cloud.google.com/go/compute/metadata v0.3.0 // indirect
