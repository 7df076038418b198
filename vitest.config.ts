import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // `import … from 'loopscope'` in the clone's own tests: package.json's "loopscope-source"
  // export condition names the TypeScript source (the package's dist/ exists only once packed).
  // `@/…` is the project's root, as tsconfig.json's paths say: a test can call a Next route
  // (app/**/route.ts) to compare it with the HTTP server's fast path.
  resolve: { conditions: ['loopscope-source'], alias: [{ find: /^@\//, replacement: fileURLToPath(new URL('./', import.meta.url)) }] },
  ssr: { resolve: { conditions: ['loopscope-source'] } },
  test: {
    include: ['lib/**/*.test.ts', 'tools/**/*.test.ts', 'bench/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The runner integration tests spawn child processes; two cores do not gain from more.
    maxWorkers: 2,
  },
});
