// A small genkit Go app of the kind a developer attaches Loopscope to: its own model (scripted,
// since no model API is reachable here), two plain tools, a tool that writes a marker file, an
// interrupting tool, and two flows that run a generate with them. It does nothing Loopscope-
// specific: started with GENKIT_ENV=dev it serves genkit's reflection API, and with
// GENKIT_TELEMETRY_SERVER set it sends its traces there, as under `genkit start`.
package main

import (
	"context"
	"log"
	"os/signal"
	"syscall"

	"github.com/firebase/genkit/go/genkit"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	// WithExperimental: DefineInterruptibleTool (typed interrupts) lives in genkit/exp in v1.12.
	g := genkit.Init(ctx, genkit.WithExperimental())
	defineModel(g)
	tools := defineTools(g)
	defineFlows(g, tools)
	log.Printf("genkit-go-app ready")
	// A genkit app serves until it is told to stop; genkit.Init's reflection server stops
	// with the same signals (it wraps ctx in its own NotifyContext).
	<-ctx.Done()
	log.Printf("genkit-go-app stopping")
}
