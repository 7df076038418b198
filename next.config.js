/** @type {import('next').NextConfig} */
const nextConfig = {
  // No "powered by" header; nothing about the server leaks to a page.
  poweredByHeader: false,
  // Genkit and OpenTelemetry stay plain Node modules loaded at run time, not bundled.
  serverExternalPackages: ['genkit', '@genkit-ai/core', '@genkit-ai/ai', '@opentelemetry/sdk-node', 'tsx'],
  // The proxy buffers request bodies and would cut OTLP exports at its 10 MB default; the
  // receiver's own limit (32 MiB) answers 413 past that.
  experimental: { proxyClientMaxBodySize: '33mb' },
  // Type errors fail the build (next build type-checks the whole project).
  typescript: { ignoreBuildErrors: false },
};

export default nextConfig;
