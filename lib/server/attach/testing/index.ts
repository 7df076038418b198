/**
 * Driving real genkit apps the way a dev tool does, for tests and fixture scripts: start an app
 * with genkit's dev environment and find it by its runtime file, call its reflection API, and
 * record what it sends to its telemetry server. The Go and Python test apps live in
 * examples/apps/; what they answer is written up in docs/attach-runtimes.md.
 */
export { startTestApp, type StartTestAppOptions, type TestApp, type TestAppExit } from './test-app-process';
export { readRuntimeFiles, waitForRuntimeFile, RuntimeFileSchema, type RuntimeFile, type FoundRuntimeFile } from './runtime-file';
export { checkHealth, listActions, runAction, ActionDescriptorSchema, ReflectionErrorSchema, type ActionDescriptor, type ReflectionError, type RunActionReply } from './reflection-calls';
export { startTelemetryRecorder, type TelemetryRecorder, type RecordedTelemetryRequest } from './telemetry-recorder';
export { buildGenkitGoApp, genkitGoAppCommand, GENKIT_GO_APP_DIR } from './genkit-go-app';
export { ensureGenkitPythonApp, genkitPythonAppCommand, GENKIT_PYTHON_APP_DIR } from './genkit-python-app';
