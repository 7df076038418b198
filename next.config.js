import { readFileSync } from 'node:fs';

/** The package build's settings (lib/install/entry-points.json, "web"). */
const web = JSON.parse(readFileSync(new URL('./lib/install/entry-points.json', import.meta.url), 'utf8')).web;

/** @type {import('next').NextConfig} */
const nextConfig = {
  // No "powered by" header; nothing about the server leaks to a page.
  poweredByHeader: false,
  // The package build (scripts/build-package.ts) takes from the standalone output the few files
  // of Next's runtime the production server needs, so an installed Loopscope ships no compiler.
  // Into a folder of its own: a server running from .next (the e2e tests' one) keeps its build.
  ...(process.env.LOOPSCOPE_PACKAGE_BUILD === '1' ? { output: 'standalone', distDir: web.buildDir } : {}),
  // Genkit and OpenTelemetry stay plain Node modules loaded at run time, not bundled.
  serverExternalPackages: ['genkit', '@genkit-ai/core', '@genkit-ai/ai', '@opentelemetry/sdk-node', 'tsx'],
  // The proxy buffers request bodies and would cut OTLP exports at its 10 MB default; the
  // receiver's own limit (32 MiB) answers 413 past that.
  // isrFlushToDisk false: the server writes no cache into its build folder, which in an
  // installed package is inside node_modules (the prerendered /icon.svg landed there).
  // preloadEntriesOnStart false: Next loads a route's code when it is first asked for, not all 51
  // routes as it starts. That preload is ≈ 200–400 ms of the server's one thread, taken while the
  // app `loopscope start -- <cmd>` boots on the same cores and while the first page renders
  // (docs/adr/0014-attach-before-next-is-warm.md; bench/package.bench.ts).
  experimental: { proxyClientMaxBodySize: '33mb', isrFlushToDisk: false, preloadEntriesOnStart: false },
  // Type errors fail the build (next build type-checks the whole project).
  typescript: { ignoreBuildErrors: false },
};

export default nextConfig;
