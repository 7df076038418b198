package main

// Tests of the runner's JSON-lines protocol (lib/contract/go-runner-lines.ts on the TypeScript
// side, lib/runtimes/genkit-go/run/go-runner.ts the caller): command lines are written to the command
// loop (serve) the way go-runner.ts writes them, and the answer lines are read back in order. The
// runner is the real one — genkit Go, the tools of tools/go/, the scenarios of tools/go/scenarios/,
// its own span processors — with its spans exported to an in-memory exporter instead of OTLP/HTTP,
// so the spans of a call can be counted when its result line arrives.
//
// With LOOPSCOPE_GO_RUNNER_LINES set to a file, every line the runner printed is appended to it:
// lib/runtimes/genkit-go/run/go-runner-protocol.test.ts parses them with the zod schemas of
// go-runner-lines.ts.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/firebase/genkit/go/genkit"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	tools "loopscope.local/tools"
)

var (
	testRunner *runner
	exported   *tracetest.InMemoryExporter
	// linesFile collects every printed line for the TypeScript schema test (nil: not asked for).
	linesFile   *os.File
	linesFileMu sync.Mutex
)

func TestMain(m *testing.M) {
	ctx := context.Background()
	exported = tracetest.NewInMemoryExporter()
	provider, err := useTracerProvider(exported)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	g := genkit.Init(ctx, genkit.WithExperimental())
	testRunner = &runner{g: g, tools: tools.Register(g), scenariosDir: filepath.Join("..", "..", "tools", "go", "scenarios"), models: map[string]bool{}, flush: provider.ForceFlush}
	if path := os.Getenv("LOOPSCOPE_GO_RUNNER_LINES"); path != "" {
		if linesFile, err = os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	code := m.Run()
	_ = provider.Shutdown(ctx)
	if linesFile != nil {
		_ = linesFile.Close()
	}
	os.Exit(code)
}

// line is one JSON line the runner printed.
type line map[string]any

func (l line) str(key string) string {
	value, _ := l[key].(string)
	return value
}

func (l line) object(key string) line {
	value, _ := l[key].(map[string]any)
	return value
}

// session is one command loop on pipes: what go-runner.ts has with the runner process.
type session struct {
	t      *testing.T
	stdin  *io.PipeWriter
	lines  chan line
	served chan struct{}
	// ready is the first line, as printed.
	ready []byte
}

func startSession(t *testing.T) *session {
	t.Helper()
	inReader, inWriter := io.Pipe()
	outReader, outWriter := io.Pipe()
	s := &session{t: t, stdin: inWriter, lines: make(chan line, 4096), served: make(chan struct{})}
	go func() {
		testRunner.serve(context.Background(), inReader, outWriter)
		close(s.served)
	}()
	go func() {
		scanner := bufio.NewScanner(outReader)
		scanner.Buffer(make([]byte, 1<<20), 64<<20)
		for scanner.Scan() {
			if linesFile != nil {
				linesFileMu.Lock()
				_, _ = linesFile.Write(append(append([]byte(nil), scanner.Bytes()...), '\n'))
				linesFileMu.Unlock()
			}
			if s.ready == nil {
				s.ready = append([]byte(nil), scanner.Bytes()...)
			}
			var parsed line
			if err := json.Unmarshal(scanner.Bytes(), &parsed); err != nil {
				parsed = line{"type": "<not JSON>", "text": scanner.Text()}
			}
			s.lines <- parsed
		}
		close(s.lines)
	}()
	t.Cleanup(func() {
		_ = inWriter.Close()
		select {
		case <-s.served:
		case <-time.After(10 * time.Second):
			t.Errorf("the command loop did not end when its input ended")
		}
		_ = outWriter.Close()
	})
	if ready := s.next(); ready.str("type") != "ready" {
		t.Fatalf("the first line is %v, not ready", ready)
	}
	return s
}

// send writes one command line, as go-runner.ts does (a JSON value, or raw text for malformed input).
func (s *session) send(command any) {
	s.t.Helper()
	text, isText := command.(string)
	if !isText {
		encoded, err := json.Marshal(command)
		if err != nil {
			s.t.Fatal(err)
		}
		text = string(encoded)
	}
	if _, err := io.WriteString(s.stdin, text+"\n"); err != nil {
		s.t.Fatalf("writing %s: %v", text, err)
	}
}

// next is the next line the runner printed.
func (s *session) next() line {
	s.t.Helper()
	select {
	case got, open := <-s.lines:
		if !open {
			s.t.Fatal("the runner's output ended")
		}
		return got
	case <-time.After(15 * time.Second):
		s.t.Fatal("no line from the runner within 15 s")
	}
	return nil
}

// until reads lines up to and including the first one `want` accepts, returning all of them.
func (s *session) until(want func(line) bool) []line {
	s.t.Helper()
	var seen []line
	for {
		got := s.next()
		seen = append(seen, got)
		if want(got) {
			return seen
		}
	}
}

// untilAll reads lines until each of `wants` has accepted one, returning all of them: for lines
// whose order is not part of the protocol (a command's answer and what the call it touched does).
func (s *session) untilAll(wants ...func(line) bool) []line {
	s.t.Helper()
	found := make([]bool, len(wants))
	left := len(wants)
	return s.until(func(l line) bool {
		for index, want := range wants {
			if !found[index] && want(l) {
				found[index] = true
				left--
				break
			}
		}
		return left == 0
	})
}

func isCommandResult(requestID string) func(line) bool {
	return func(l line) bool { return l.str("type") == "command-result" && l.str("requestId") == requestID }
}

func isResult(requestID string) func(line) bool {
	return func(l line) bool { return l.str("type") == "result" && l.str("requestId") == requestID }
}

func spansOfTrace(traceID string) int {
	count := 0
	for _, span := range exported.GetSpans() {
		if span.SpanContext.TraceID().String() == traceID {
			count++
		}
	}
	return count
}

func TestReadyNamesEveryToolAndItsSchemas(t *testing.T) {
	s := startSession(t)
	var ready struct {
		Type     string   `json:"type"`
		Pid      int      `json:"pid"`
		Tools    []string `json:"tools"`
		ToolInfo []struct {
			Name        string         `json:"name"`
			InputSchema map[string]any `json:"inputSchema"`
		} `json:"toolInfo"`
	}
	if err := json.Unmarshal(s.ready, &ready); err != nil {
		t.Fatalf("ready line %s: %v", s.ready, err)
	}
	if ready.Type != "ready" || ready.Pid != os.Getpid() {
		t.Fatalf("ready line %s", s.ready)
	}
	if len(ready.Tools) != len(testRunner.tools) || len(ready.ToolInfo) != len(ready.Tools) {
		t.Fatalf("ready names %d tools with %d infos; %d are registered", len(ready.Tools), len(ready.ToolInfo), len(testRunner.tools))
	}
	for index, name := range ready.Tools {
		if index > 0 && ready.Tools[index-1] >= name {
			t.Errorf("tools are not sorted: %v", ready.Tools)
		}
		if ready.ToolInfo[index].Name != name || ready.ToolInfo[index].InputSchema == nil {
			t.Errorf("toolInfo[%d] is %+v, not %s with its input schema", index, ready.ToolInfo[index], name)
		}
	}
}

func TestMalformedLines(t *testing.T) {
	s := startSession(t)
	// Not JSON, or JSON without a request id: nobody waits for an answer, none is sent.
	s.send("this is not JSON")
	s.send(`{"type": 5}`)
	// A command that names its request is answered with a failed result, so its caller stops waiting.
	s.send(`{"type":"generate","requestId":"bad-1","scenario":"go-plain-tool-round","messages":{"not":"a list"}}`)
	got := s.next()
	if got.str("type") != "result" || got.str("requestId") != "bad-1" || got.object("failure").str("status") != "INVALID_ARGUMENT" || !strings.HasPrefix(got.object("failure").str("message"), "the command is not valid: ") {
		t.Fatalf("a malformed generate with a request id: %v", got)
	}
	if traceIDs, _ := got["traceIds"].([]any); traceIDs == nil || len(traceIDs) != 0 {
		t.Errorf("its traceIds are %v, not []", got["traceIds"])
	}
	// A history that is not genkit messages fails the call before genkit runs.
	s.send(map[string]any{"type": "generate", "requestId": "bad-2", "scenario": "go-plain-tool-round", "messages": []any{map[string]any{"role": 5}}})
	got = s.next()
	if !isResult("bad-2")(got) || got.object("failure").str("status") != "INVALID_ARGUMENT" || !strings.HasPrefix(got.object("failure").str("message"), "message 0 of the history is not a genkit message") {
		t.Fatalf("a history that is not genkit messages: %v", got)
	}
	// A replay step that does not parse is answered the same way.
	s.send(`{"type":"replay-step","requestId":"bad-3","models":"not a list"}`)
	got = s.next()
	if !isResult("bad-3")(got) || got.object("failure").str("status") != "INVALID_ARGUMENT" || !strings.HasPrefix(got.object("failure").str("message"), "the replay step is not valid: ") {
		t.Fatalf("a malformed replay step: %v", got)
	}
	// The loop goes on: the next line answers the next command.
	s.send(map[string]any{"type": "ping", "requestId": "ping-1"})
	if got := s.next(); got.str("type") != "pong" || got.str("requestId") != "ping-1" {
		t.Fatalf("after malformed lines, a ping got %v", got)
	}
}

func TestUnknownCommand(t *testing.T) {
	s := startSession(t)
	s.send(map[string]any{"type": "frobnicate", "requestId": "u-1"})
	got := s.next()
	if got.str("type") != "error" || got.str("requestId") != "u-1" || got.str("message") != `unknown command "frobnicate"` {
		t.Fatalf("an unknown command got %v", got)
	}
}

func TestGenerateAScriptedScenario(t *testing.T) {
	s := startSession(t)
	s.send(map[string]any{"type": "generate", "requestId": "g-1", "scenario": "go-plain-tool-round"})
	got := s.next()
	// The spans are exported before the result is told: all six are there when it arrives.
	if !isResult("g-1")(got) {
		t.Fatalf("expected the result of g-1, got %v", got)
	}
	traceIDs, _ := got["traceIds"].([]any)
	if len(traceIDs) != 1 || traceIDs[0] != got.str("traceId") || got.object("rootSpan").str("traceId") != got.str("traceId") || got.object("rootSpan").str("spanId") == "" {
		t.Fatalf("trace ids of a one-trace call: %v", got)
	}
	if spans := spansOfTrace(got.str("traceId")); spans != 6 {
		t.Errorf("%d spans of its trace were exported when the result arrived, want 6 (generate, 2 model calls, 2 tools, nested generate)", spans)
	}
	outcome := got.object("outcome")
	if outcome.str("finishReason") != "stop" || outcome.str("text") != "It is 24°C (75°F) and sunny in Lisbon." || got["failure"] != nil {
		t.Errorf("outcome %v, failure %v", outcome, got["failure"])
	}
	if interrupts, _ := outcome["interrupts"].([]any); interrupts == nil || len(interrupts) != 0 {
		t.Errorf("interrupts %v, want []", outcome["interrupts"])
	}

	// An interrupted call and its scripted resume (what the fixtures' generator sends).
	s.send(map[string]any{"type": "generate", "requestId": "g-2", "scenario": "go-restart-after-approval"})
	first := s.next()
	interrupts, _ := first.object("outcome")["interrupts"].([]any)
	if !isResult("g-2")(first) || first.object("outcome").str("finishReason") != "interrupted" || len(interrupts) != 1 {
		t.Fatalf("the first call of go-restart-after-approval: %v", first)
	}
	if pending := line(interrupts[0].(map[string]any)); pending.str("name") != "transferMoney" || pending.str("ref") != "transfer-1" || pending.object("metadata").str("reason") != "approval-required" {
		t.Errorf("its interrupt is %v", pending)
	}
	s.send(map[string]any{
		"type": "generate", "requestId": "g-3", "scenario": "go-restart-after-approval",
		"messages": first.object("outcome")["messages"],
		"resume":   map[string]any{"restart": []any{map[string]any{"name": "transferMoney", "ref": "transfer-1", "resumed": map[string]any{"approved": true, "approvedBy": "alice"}}}},
		"answers":  first["rootSpan"],
	})
	resumed := s.next()
	if !isResult("g-3")(resumed) || resumed.object("outcome").str("finishReason") != "stop" || resumed.object("outcome").str("text") != "Transfer done: 500 USD to Bob, approved by alice." {
		t.Fatalf("the resume: %v", resumed)
	}
	if spans := spansOfTrace(first.str("traceId")) + spansOfTrace(resumed.str("traceId")); spans != 7 {
		t.Errorf("%d spans in the two traces, want 7", spans)
	}

	// A scenario that does not exist fails its call, naming it.
	s.send(map[string]any{"type": "generate", "requestId": "g-4", "scenario": "no-such-scenario"})
	if got := s.next(); !isResult("g-4")(got) || got.object("failure").str("status") != "NOT_FOUND" || !strings.Contains(got.object("failure").str("message"), `no genkit Go scenario "no-such-scenario"`) {
		t.Fatalf("an unknown scenario: %v", got)
	}
}

func TestStepCommandsForARunThatIsNotRunning(t *testing.T) {
	s := startSession(t)
	s.send(map[string]any{"type": "stop", "requestId": "c-1", "runId": "nope"})
	s.send(map[string]any{"type": "pause-decision", "requestId": "c-2", "runId": "nope", "pauseId": "p", "decision": map[string]any{"action": "continue"}})
	s.send(map[string]any{"type": "set-mode", "requestId": "c-3", "runId": "nope", "mode": map[string]any{"kind": "run"}})
	for _, requestID := range []string{"c-1", "c-2", "c-3"} {
		got := s.next()
		if got.str("type") != "command-result" || got.str("requestId") != requestID || got["ok"] != false || got.str("message") != "Run nope is not running in the genkit Go runner." {
			t.Fatalf("%s: %v", requestID, got)
		}
	}
}

// stepped starts a call of go-plain-tool-round that pauses before its first model call, and
// returns its pause (the lines before it are span starts).
func (s *session) stepped(requestID, runID string) line {
	s.t.Helper()
	s.send(map[string]any{"type": "generate", "requestId": requestID, "scenario": "go-plain-tool-round", "runId": runID, "mode": map[string]any{"kind": "breakpoints", "breakpoints": map[string]any{"tools": []string{}, "modelTurns": []int{1}}}})
	seen := s.until(func(l line) bool { return l.str("type") == "paused" })
	for _, before := range seen[:len(seen)-1] {
		if before.str("type") != "span-start" || before.object("span").str("runId") != runID || before.object("span").str("requestId") != requestID {
			s.t.Fatalf("before the pause: %v", before)
		}
	}
	if len(seen) < 2 || seen[0].object("span").str("name") != "generate" {
		s.t.Fatalf("the generate span's start is not told before the pause: %v", seen)
	}
	paused := seen[len(seen)-1]
	if paused.str("runId") != runID || paused.str("requestId") != requestID || paused.object("pause").str("kind") != "model" || paused.object("pause").str("traceId") != seen[0].object("span").str("traceId") {
		s.t.Fatalf("paused line %v", paused)
	}
	return paused.object("pause")
}

func TestSteppedRunLines(t *testing.T) {
	s := startSession(t)
	pause := s.stepped("s-1", "run-1")
	s.send(map[string]any{"type": "pause-decision", "requestId": "d-1", "runId": "run-1", "pauseId": pause.str("pauseId"), "decision": map[string]any{"action": "continue"}})
	seen := s.untilAll(isResult("s-1"), isCommandResult("d-1"))
	kinds := map[string]int{}
	for _, got := range seen {
		kinds[got.str("type")]++
	}
	// The decision is acknowledged, the pause ends and the call ends: the loop answers the command
	// while the call goes on, so the answer's place among the call's lines is not fixed.
	for _, got := range seen {
		switch got.str("type") {
		case "command-result":
			if got.str("requestId") != "d-1" || got["ok"] != true {
				t.Errorf("the decision's answer: %v", got)
			}
		case "pause-ended":
			if got.str("pauseId") != pause.str("pauseId") || got.str("runId") != "run-1" || got.str("requestId") != "s-1" {
				t.Errorf("pause-ended %v", got)
			}
		}
	}
	if kinds["command-result"] != 1 || kinds["pause-ended"] != 1 || kinds["paused"] != 0 || kinds["span-start"] != 5 || kinds["result"] != 1 {
		t.Errorf("after the decision: %v (want its answer, one pause-ended, no other pause, the 5 other span starts, the result)", kinds)
	}
	endedAt, resultAt := -1, -1
	for index, got := range seen {
		if got.str("type") == "pause-ended" {
			endedAt = index
		}
		if isResult("s-1")(got) {
			resultAt = index
			if got.object("outcome").str("finishReason") != "stop" || spansOfTrace(got.str("traceId")) != 6 {
				t.Errorf("result %v", got)
			}
		}
	}
	if endedAt > resultAt {
		t.Errorf("the pause ended after the call's result")
	}
	// A decision for the pause that ended is refused (the run is over, or being forgotten).
	s.send(map[string]any{"type": "pause-decision", "requestId": "d-2", "runId": "run-1", "pauseId": pause.str("pauseId"), "decision": map[string]any{"action": "continue"}})
	got := s.next()
	if got.str("type") != "command-result" || got["ok"] != false {
		t.Errorf("a decision after the run: %v", got)
	}
	if message := got.str("message"); message != "Run run-1 is not running in the genkit Go runner." && message != "That pause is over (the run moved on, was stopped or timed out)." {
		t.Errorf("a decision after the run is refused with %q", message)
	}
}

func TestStopWhilePaused(t *testing.T) {
	s := startSession(t)
	pause := s.stepped("s-2", "run-2")
	s.send(map[string]any{"type": "stop", "requestId": "stop-1", "runId": "run-2"})
	// The stop's answer, the pause's end and the failed result: the pause ends before the result;
	// the answer, sent by the loop, may come anywhere among them.
	seen := s.untilAll(isResult("s-2"), isCommandResult("stop-1"))
	var order []string
	for _, got := range seen {
		order = append(order, got.str("type"))
		switch {
		case isCommandResult("stop-1")(got) && got["ok"] != true:
			t.Errorf("the stop's answer: %v", got)
		case got.str("type") == "pause-ended" && got.str("pauseId") != pause.str("pauseId"):
			t.Errorf("pause-ended %v", got)
		case isResult("s-2")(got) && (got.object("failure").str("status") != "CANCELLED" || got.object("failure").str("message") != "The run was stopped by the user while paused."):
			t.Errorf("a run stopped while paused: %v", got)
		}
	}
	withoutAnswer := strings.Join(strings.Fields(strings.Replace(strings.Join(order, " "), "command-result", "", 1)), " ")
	if len(order) != 3 || withoutAnswer != "pause-ended result" {
		t.Errorf("after the stop: %v (want pause-ended then the result, and the stop's answer)", order)
	}
}

func TestCommandsAreAnsweredInOrderWhileACallIsPaused(t *testing.T) {
	s := startSession(t)
	s.stepped("s-3", "run-3")
	s.send(map[string]any{"type": "ping", "requestId": "o-1"})
	s.send(map[string]any{"type": "stop", "requestId": "o-2", "runId": "no-such-run"})
	s.send(map[string]any{"type": "frobnicate", "requestId": "o-3"})
	s.send(map[string]any{"type": "ping", "requestId": "o-4"})
	want := []string{"pong o-1", "command-result o-2", "error o-3", "pong o-4"}
	for _, expected := range want {
		if got := s.next(); got.str("type")+" "+got.str("requestId") != expected {
			t.Fatalf("want %s, got %v", expected, got)
		}
	}
	s.send(map[string]any{"type": "stop", "requestId": "o-5", "runId": "run-3"})
	s.until(isResult("s-3"))
}

func TestReplayStepAsksForEachModelCall(t *testing.T) {
	s := startSession(t)
	step := map[string]any{
		"type": "replay-step", "requestId": "r-1", "models": []string{"scripted/replay-test"}, "tools": []any{},
		"options": map[string]any{"model": "scripted/replay-test", "messages": []any{map[string]any{"role": "user", "content": []any{map[string]any{"text": "Hello?"}}}}},
	}
	s.send(step)
	call := s.next()
	if call.str("type") != "replay-call" || call.str("requestId") != "r-1" || call.str("call") != "model" || call.str("callId") == "" || call.object("span").str("traceId") == "" {
		t.Fatalf("the replay's model call: %v", call)
	}
	messages, _ := call.object("request")["messages"].([]any)
	if len(messages) != 1 {
		t.Fatalf("the model request is %v", call["request"])
	}
	s.send(map[string]any{"type": "replay-answer", "callId": call.str("callId"), "response": map[string]any{"message": map[string]any{"role": "model", "content": []any{map[string]any{"text": "Hello."}}}, "finishReason": "stop"}})
	got := s.next()
	if !isResult("r-1")(got) || got.object("outcome").str("text") != "Hello." || got.object("message").str("role") != "model" || got.str("traceId") != call.object("span").str("traceId") {
		t.Fatalf("the replay step's result: %v", got)
	}
	// An answer that is an error (a stopped replay) fails the step with it.
	step["requestId"] = "r-2"
	s.send(step)
	call = s.next()
	s.send(map[string]any{"type": "replay-answer", "callId": call.str("callId"), "error": "The replay was stopped."})
	if got := s.next(); !isResult("r-2")(got) || !strings.Contains(got.object("failure").str("message"), "The replay was stopped.") {
		t.Fatalf("a replay call answered with an error: %v", got)
	}
}

func TestShutdownEndsTheLoop(t *testing.T) {
	s := startSession(t)
	s.send(map[string]any{"type": "shutdown"})
	select {
	case <-s.served:
	case <-time.After(10 * time.Second):
		t.Fatal("the command loop did not end on shutdown")
	}
}
