'use client';

import Link from 'next/link';
import { useRef, useState, type ChangeEvent, type DragEvent, type ReactNode } from 'react';
import { apiJson } from './api-client';

interface ImportOutcome {
  file: string;
  traceIds?: string[];
  spanCount?: number;
  error?: string;
}

type Progress = { kind: 'busy'; done: number; total: number } | { kind: 'done'; outcomes: ImportOutcome[] } | undefined;

/** Imports one file: an empty one is named as such before anything is sent. */
async function importOne(file: File, name: string): Promise<ImportOutcome> {
  if (file.size === 0) return { file: name, error: 'the file is empty: nothing to import' };
  try {
    const result = await apiJson<{ traceIds: string[]; spanCount: number }>('/api/traces/import', { method: 'POST', body: { fileName: name, text: await file.text() } });
    return { file: name, traceIds: result.traceIds, spanCount: result.spanCount };
  } catch (error) {
    return { file: name, error: (error as Error).message };
  }
}

/** The files of a drop, folders walked (a whole `.genkit/traces` folder), with their paths. */
async function droppedFiles(transfer: DataTransfer): Promise<{ file: File; name: string }[]> {
  const entries = [...transfer.items].map((item) => item.webkitGetAsEntry?.()).filter((entry): entry is FileSystemEntry => Boolean(entry));
  if (entries.length === 0) return [...transfer.files].map((file) => ({ file, name: file.name }));
  const found: { file: File; name: string }[] = [];
  const walk = async (entry: FileSystemEntry, prefix: string): Promise<void> => {
    if (entry.isFile) {
      const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
      found.push({ file, name: `${prefix}${entry.name}` });
      return;
    }
    const reader = (entry as FileSystemDirectoryEntry).createReader();
    // readEntries answers in batches until it returns none.
    for (;;) {
      const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
      if (batch.length === 0) break;
      for (const child of batch) await walk(child, `${prefix}${entry.name}/`);
    }
  };
  for (const entry of entries) await walk(entry, '');
  return found;
}

/**
 * Imports trace files: any file (OTLP JSON / JSONL, Genkit Dev UI trace files, which have no
 * extension), several at once, a whole folder, or dropped on the list (`children`). Progress
 * shows while it works; the result names what came in — with links, at the top — and each
 * file that could not be read, with why. A bad file never stops the others.
 */
export function ImportTraces(props: { children: ReactNode }) {
  const filesInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<Progress>();
  const [dragging, setDragging] = useState(false);

  const importAll = async (files: { file: File; name: string }[]) => {
    if (files.length === 0) return;
    const outcomes: ImportOutcome[] = [];
    for (const [index, entry] of files.entries()) {
      setProgress({ kind: 'busy', done: index, total: files.length });
      outcomes.push(await importOne(entry.file, entry.name));
    }
    setProgress({ kind: 'done', outcomes });
  };
  const onPick = (event: ChangeEvent<HTMLInputElement>) => {
    const files = [...(event.target.files ?? [])].map((file) => ({ file, name: file.webkitRelativePath || file.name }));
    event.target.value = '';
    void importAll(files);
  };
  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    void droppedFiles(event.dataTransfer).then(importAll);
  };

  const outcomes = progress?.kind === 'done' ? progress.outcomes : [];
  const imported = outcomes.filter((outcome) => outcome.traceIds);
  const failed = outcomes.filter((outcome) => outcome.error);
  return (
    <div
      className={`import-zone${dragging ? ' dragging' : ''}`}
      data-testid="import-zone"
      onDragOver={(event) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      <div className="import">
        <input ref={filesInput} type="file" multiple hidden onChange={onPick} data-testid="import-input" />
        <input ref={folderInput} type="file" multiple hidden webkitdirectory="" onChange={onPick} data-testid="import-folder-input" />
        <button type="button" className="secondary" onClick={() => filesInput.current?.click()} data-testid="import-button">
          Import trace files…
        </button>
        <button type="button" className="secondary" onClick={() => folderInput.current?.click()} data-testid="import-folder-button" title="A whole folder, e.g. .genkit/traces">
          Import a folder…
        </button>
        <span className="hint"> or drop files and folders on the list</span>
      </div>
      {progress?.kind === 'busy' ? (
        <p role="status" className="hint" data-testid="import-message">
          Importing {progress.done + 1} of {progress.total}…
        </p>
      ) : null}
      {progress?.kind === 'done' ? (
        <div role="status" className="import-result" data-testid="import-message">
          {imported.length > 0 ? (
            <p className="ok-text">
              Imported {imported.reduce((sum, outcome) => sum + (outcome.spanCount ?? 0), 0)} spans in {imported.reduce((sum, outcome) => sum + (outcome.traceIds?.length ?? 0), 0)} trace(s) from{' '}
              {imported.length === 1 ? imported[0].file : `${imported.length} files`}:
            </p>
          ) : null}
          {imported.length > 0 ? (
            <ul className="import-list" data-testid="imported-traces">
              {imported.flatMap((outcome) =>
                (outcome.traceIds ?? []).map((traceId) => (
                  <li key={`${outcome.file}:${traceId}`}>
                    <Link href={`/traces/${traceId}`}>{outcome.file}</Link> <span className="trace-id">{traceId.slice(0, 8)}</span>
                  </li>
                )),
              )}
            </ul>
          ) : null}
          {failed.length > 0 ? (
            <ul className="import-list error-text" data-testid="import-failures">
              {failed.map((outcome) => (
                <li key={outcome.file}>
                  {outcome.file}: {outcome.error}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
      {props.children}
    </div>
  );
}
