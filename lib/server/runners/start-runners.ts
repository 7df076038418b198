import type { AppContext } from '../app-context';

/** How long the runners wait for the developer's app to attach before they start anyway. */
export const APP_ATTACH_GRACE_MS = 10_000;

/**
 * Starts the built-in runners (instrumentation.ts calls it as the server starts). When the server
 * started the developer's app (`loopscope start -- <cmd>`), they start once the app attached, or
 * after APP_ATTACH_GRACE_MS: on two cores, their warm-up (≈1.5 s of CPU each) beside the app's own
 * start (≈1 s of genkit) delayed the app's attaching (bench/package.bench.ts). A run, or the
 * page's scenario list, that asks for a runner earlier starts them at once.
 */
export function startRunners(context: Pick<AppContext, 'supervisor' | 'attachment'>): void {
  const { supervisor, attachment } = context;
  if (!attachment.app) {
    supervisor.start();
    return;
  }
  const attached = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, APP_ATTACH_GRACE_MS);
    timer.unref();
    const stopListening = attachment.registry.onChange(() => {
      if (attachment.registry.runtimes().length === 0) return;
      stopListening();
      clearTimeout(timer);
      resolve();
    });
  });
  supervisor.startAfter(attached);
}
