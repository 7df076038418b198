'use client';

import { useState, type FormEvent } from 'react';
import { parseTokenInput } from '@/lib/contract/parse-token-input';

/**
 * Asks for the per-launch token when the page has no session: where to find it (the start
 * banner) and a field for the token or the whole `➜ Open:` URL. A form, so Enter submits.
 */
export function TokenPrompt(props: { lost: boolean; busy: boolean; error?: string; onSubmit: (token: string) => void }) {
  const [value, setValue] = useState('');
  const [inputError, setInputError] = useState<string | undefined>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const token = parseTokenInput(value);
    if (token === null) {
      setInputError('Paste the token, or the whole ➜ Open: URL, into the field first.');
      return;
    }
    setInputError(undefined);
    props.onSubmit(token);
  };
  const error = inputError ?? props.error;
  return (
    <section className="token-prompt" role="dialog" aria-modal="true" aria-labelledby="token-prompt-title" aria-describedby="token-prompt-where" data-testid="token-prompt">
      <h1 id="token-prompt-title">{props.lost ? 'Loopscope needs its token again' : 'Loopscope needs its token'}</h1>
      {props.lost ? <p>The server no longer accepts this page&apos;s session (it restarted with a new token, or the session ended).</p> : null}
      <p id="token-prompt-where">
        The token is printed in the start banner, in the terminal where <code>npm start</code> runs: open the <code>➜ Open:</code> URL from
        there (it carries the token after <code>#token=</code>), or paste that URL or the <code>➜ Token:</code> value here.
      </p>
      <form onSubmit={submit} className="token-form">
        <label htmlFor="token-input">Token or ➜ Open: URL</label>
        <input
          id="token-input"
          name="token"
          type="password"
          autoComplete="off"
          spellCheck={false}
          autoFocus
          value={value}
          onChange={(event) => setValue(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'token-prompt-error' : undefined}
          data-testid="token-input"
        />
        <button type="submit" disabled={props.busy} data-testid="token-submit">
          {props.busy ? 'Checking…' : 'Open Loopscope'}
        </button>
      </form>
      {error ? (
        <p id="token-prompt-error" role="alert" className="error-text" data-testid="token-error">
          {error}
        </p>
      ) : null}
    </section>
  );
}
