import type { Metadata } from 'next';
import Link from 'next/link';
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import { serverToken } from '@/lib/server/server-config';
import './globals.css';

export const metadata: Metadata = {
  title: 'Loopscope',
  description: 'See what your Genkit tool loop did and why it stopped.',
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Rendered per request: the token is per launch, never baked in at build time.
  await connection();
  return (
    <html lang="en">
      <head>
        {/* The page's key to the API. Cross-origin pages cannot read it; the Host check stops DNS rebinding. */}
        <meta name="loopscope-token" content={serverToken()} />
      </head>
      <body>
        <nav className="topbar">
          <Link href="/" className="brand">
            Loopscope
          </Link>
          <span className="tagline">tool rounds, interrupts and resumes of your Genkit loops</span>
        </nav>
        {children}
      </body>
    </html>
  );
}
