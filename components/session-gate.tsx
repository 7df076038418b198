'use client';

import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { tokenFromFragment } from '@/lib/contract/parse-token-input';
import { SESSION_LOST_EVENT } from './api-client';
import { TokenPrompt } from './token-prompt';

type GateState = 'checking' | 'ready' | 'prompt';

/** Counts the sessions this page opened: a hook that holds a connection (the event stream) reopens it on a new one. */
const SessionEpochContext = createContext(0);

/** The page's session number; it changes when the page gets a new session after losing one. */
export function useSessionEpoch(): number {
  return useContext(SessionEpochContext);
}

const REFUSED = 'The server refused that token: copy the ➜ Open: URL (or the ➜ Token: value) from the start banner again.';

/** POST /api/session: the token for the page's HttpOnly cookie. Resolves to an error sentence, or undefined when it worked. */
async function exchangeToken(token: string): Promise<string | undefined> {
  try {
    const response = await fetch('/api/session', { method: 'POST', headers: { authorization: `Bearer ${token}` }, cache: 'no-store' });
    if (response.ok) return undefined;
    if (response.status === 401) return REFUSED;
    return `The server answered ${response.status} to the token exchange: ${await response.text()}`;
  } catch (error) {
    return `The Loopscope server does not answer (is npm start still running?): ${(error as Error).message}`;
  }
}

/** GET /api/session: does the browser's cookie open this server? */
async function hasSession(): Promise<boolean> {
  try {
    return (await fetch('/api/session', { cache: 'no-store' })).ok;
  } catch {
    return false;
  }
}

/**
 * The page's way in (root layout). The page is served without the token: the start banner's
 * URL hands it over once in the fragment (`#token=…`, never sent to the server or its logs),
 * which is exchanged for the HttpOnly session cookie and then removed from the address bar.
 * Without a fragment the cookie is checked; without a session, the prompt asks for the
 * token. A 401 later (the server restarted with a new token) brings the prompt back over
 * the page, keeping what the page shows; the new session reopens its streams.
 */
export function SessionGate(props: { children: ReactNode }) {
  const [state, setState] = useState<GateState>('checking');
  const [opened, setOpened] = useState(false);
  const [epoch, setEpoch] = useState(0);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();

  const signIn = useCallback(async (token: string) => {
    setBusy(true);
    const failure = await exchangeToken(token);
    setBusy(false);
    if (failure) {
      setError(failure);
      setState('prompt');
      return;
    }
    setError(undefined);
    setOpened(true);
    setEpoch((current) => current + 1);
    setState('ready');
  }, []);

  useEffect(() => {
    /** Signs in with a `#token=…` fragment, if the address has one; the token then leaves the address bar, history and bookmarks. */
    const signInFromFragment = (): boolean => {
      const token = tokenFromFragment(window.location.hash);
      if (token === null) return false;
      window.history.replaceState(window.history.state, '', `${window.location.pathname}${window.location.search}`);
      void signIn(token);
      return true;
    };
    if (!signInFromFragment()) {
      void hasSession().then((ok) => {
        setState(ok ? 'ready' : 'prompt');
        if (ok) setOpened(true);
      });
    }
    // The banner URL pasted into a tab already on this page changes only the fragment: no reload.
    const onHashChange = () => void signInFromFragment();
    const onLost = () => setState('prompt');
    window.addEventListener('hashchange', onHashChange);
    window.addEventListener(SESSION_LOST_EVENT, onLost);
    return () => {
      window.removeEventListener('hashchange', onHashChange);
      window.removeEventListener(SESSION_LOST_EVENT, onLost);
    };
  }, [signIn]);

  const prompt = state === 'prompt' ? <TokenPrompt lost={opened} busy={busy} error={error} onSubmit={(token) => void signIn(token)} /> : null;
  if (!opened) {
    return state === 'checking' ? (
      <p className="hint session-checking" data-testid="session-checking">
        Connecting to the Loopscope server…
      </p>
    ) : (
      <main>{prompt}</main>
    );
  }
  return (
    <SessionEpochContext.Provider value={epoch}>
      {/* inert: while the prompt is up, nothing behind it takes focus or clicks. */}
      <div inert={state === 'prompt'}>{props.children}</div>
      {prompt ? <div className="token-overlay">{prompt}</div> : null}
    </SessionEpochContext.Provider>
  );
}
