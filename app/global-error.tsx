'use client';

import './globals.css';

/**
 * The page shown when a page crashes, in the app's own style. Next's default one inlines a
 * <style> element without the CSP nonce, which the policy (security-headers.ts) blocks.
 */
export default function GlobalError(props: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <html lang="en">
      <body>
        <main>
          <h1>This page could not load</h1>
          <p className="error-text" role="alert">
            {props.error.message || 'An unexpected error stopped the page.'}
          </p>
          <button type="button" onClick={() => props.reset()}>
            Try again
          </button>
        </main>
      </body>
    </html>
  );
}
