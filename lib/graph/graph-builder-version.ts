/**
 * The version of the Graph JSON that `buildRunGraph` produces. Graph JSON computed once is
 * kept (the saved-graph cache on disk); a cached graph is used only when its version is this
 * one. Bump it in the same change as anything that changes Graph JSON for the same spans (a
 * new field, a new node kind, another label, a different match) — the goldens in
 * lib/graph/__goldens__ change then too — so no page draws a graph an older builder made.
 * lib/graph/__goldens__/version-lock.json records the version the goldens were made with, and
 * version-lock.test.ts fails when a golden changed for unchanged spans under the same version.
 */
export const GRAPH_BUILDER_VERSION = 8;
