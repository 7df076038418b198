import Link from 'next/link';

/**
 * The 404 page, in the app's own style. Next's default one inlines a <style> element
 * without the CSP nonce, which the policy (security-headers.ts) rightly blocks.
 */
export default function NotFound() {
  return (
    <main>
      <h1>Not found</h1>
      <p className="hint">Loopscope has no page at this address.</p>
      <Link href="/">Back home</Link>
    </main>
  );
}
