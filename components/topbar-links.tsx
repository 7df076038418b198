'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';

/** The header's pages, in the order a Tab reaches them. */
const PAGES: { href: string; label: string; testId: string }[] = [
  { href: '/', label: 'Runs and traces', testId: 'home-link' },
  { href: '/apps', label: 'Apps', testId: 'nav-apps-link' },
  { href: '/compare', label: 'JS ↔ Go', testId: 'compare-link' },
];

/** Whether a header link leads to the page shown: the home page only at `/`, another also below its path. */
function isCurrent(pathname: string, href: string): boolean {
  if (href === '/') return pathname === '/';
  return pathname === href || pathname.startsWith(`${href}/`);
}

/**
 * The header's links to Loopscope's pages. A client component because it reads the path to
 * mark the page shown with `aria-current="page"` (screen readers say "current page"), which
 * the layout, rendered once for every page, cannot know.
 */
export function TopbarLinks() {
  const pathname = usePathname() ?? '';
  return (
    <ul className="topbar-links">
      {PAGES.map((page) => (
        <li key={page.href}>
          <Link href={page.href} className="topbar-link" data-testid={page.testId} aria-current={isCurrent(pathname, page.href) ? 'page' : undefined}>
            {page.label}
          </Link>
        </li>
      ))}
    </ul>
  );
}
