import type { Metadata } from 'next';
import Link from 'next/link';
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import { SessionGate } from '@/components/session-gate';
import { ShortcutHelp } from '@/components/shortcut-help';
import { TopbarLinks } from '@/components/topbar-links';
import './globals.css';

export const metadata: Metadata = {
  title: 'Loopscope',
  description: 'See what your tool loop (genkit, Vercel AI SDK) did and why it stopped.',
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Rendered per request: Next puts the request's CSP nonce (proxy.ts) on its scripts, and a
  // page baked at build time would carry none. The page holds no secret: the session gate
  // gets the browser its cookie.
  await connection();
  return (
    <html lang="en">
      <body>
        <nav className="topbar" aria-label="Loopscope">
          <Link href="/" className="brand">
            Loopscope
          </Link>
          <span className="tagline">tool rounds, pauses and answers of your tool loops: genkit, the AI SDK, agent frameworks</span>
          <TopbarLinks />
          <ShortcutHelp />
        </nav>
        <SessionGate>{children}</SessionGate>
      </body>
    </html>
  );
}
