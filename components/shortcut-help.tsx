'use client';

import { useEffect, useRef, useState } from 'react';
import { hasCommandModifier, isTypingTarget } from './keyboard';

/** Every keyboard shortcut of the app, where it works. */
const SHORTCUTS: { where: string; keys: { keys: string[]; does: string }[] }[] = [
  {
    where: 'Anywhere',
    keys: [
      { keys: ['?'], does: 'this help' },
      { keys: ['Esc'], does: 'close this help' },
    ],
  },
  {
    where: 'Graph (click it or Tab to it first)',
    keys: [
      { keys: ['←', '→'], does: 'previous / next node (also ↑ ↓, k j)' },
      { keys: ['Home', 'End'], does: 'first / last node' },
      { keys: ['Enter'], does: 'expand collapsed rounds' },
    ],
  },
  {
    where: 'Span tree',
    keys: [
      { keys: ['↑', '↓'], does: 'previous / next span (also k j)' },
      { keys: ['Home', 'End'], does: 'first / last span' },
    ],
  },
  {
    where: 'A run stepped or stopped at a breakpoint',
    keys: [
      { keys: ['S'], does: 'release the oldest pause (one step)' },
      { keys: ['C'], does: 'continue to the next breakpoint, or to the end' },
      { keys: ['X'], does: 'stop the run' },
    ],
  },
  {
    where: 'A run in flight, not stepped',
    keys: [{ keys: ['X'], does: 'stop the run (a tool that hangs is not waited for)' }],
  },
];

/** `?` opens a short list of the keyboard shortcuts (not while typing in a field); Esc or the button closes it. */
export function ShortcutHelp() {
  const [open, setOpen] = useState(false);
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
      if (event.key !== '?' || isTypingTarget(event.target) || hasCommandModifier(event)) return;
      event.preventDefault();
      setOpen((current) => !current);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  useEffect(() => {
    if (open) close.current?.focus();
  }, [open]);
  return (
    <>
      <button type="button" className="topbar-help" onClick={() => setOpen(true)} aria-haspopup="dialog" data-testid="shortcut-help-button">
        ? Shortcuts
      </button>
      {open ? (
        <div className="shortcut-backdrop" onClick={() => setOpen(false)}>
          <div role="dialog" aria-modal="true" aria-label="Keyboard shortcuts" className="shortcut-help" data-testid="shortcut-help" onClick={(event) => event.stopPropagation()}>
            <header>
              <h2>Keyboard shortcuts</h2>
              <button type="button" ref={close} onClick={() => setOpen(false)} data-testid="shortcut-help-close">
                Close
              </button>
            </header>
            {SHORTCUTS.map((group) => (
              <section key={group.where}>
                <h3>{group.where}</h3>
                <dl>
                  {group.keys.map((shortcut) => (
                    <div key={shortcut.does}>
                      <dt>
                        {shortcut.keys.map((key) => (
                          <kbd key={key}>{key}</kbd>
                        ))}
                      </dt>
                      <dd>{shortcut.does}</dd>
                    </div>
                  ))}
                </dl>
              </section>
            ))}
          </div>
        </div>
      ) : null}
    </>
  );
}
