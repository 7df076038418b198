'use client';
/** Inputs for a FormField tree (lib/runtimes/genkit-reflection/input-form.ts): labelled native controls, so Tab / Enter / Space work. */
import type { FormDraft, FormField } from '@/lib/runtimes/genkit-reflection/input-form';
import { emptyDraft } from '@/lib/runtimes/genkit-reflection/input-form';

export function SchemaFields({ field, draft, path, onChange }: { field: FormField; draft: FormDraft; path: string; onChange: (draft: FormDraft) => void }) {
  const label = path || 'input';
  if (field.kind === 'object') {
    const record = (typeof draft === 'object' && !Array.isArray(draft) ? draft : {}) as Record<string, FormDraft>;
    return (
      <fieldset className="schema-object">
        {path ? <legend>{path}</legend> : null}
        {field.fields.map((child) => (
          <SchemaFields
            key={child.name}
            field={child.field}
            draft={record[child.name] ?? emptyDraft(child.field)}
            path={path ? `${path}.${child.name}` : child.name}
            onChange={(next) => onChange({ ...record, [child.name]: next })}
          />
        ))}
      </fieldset>
    );
  }
  if (field.kind === 'array') {
    const items = Array.isArray(draft) ? draft : [];
    return (
      <fieldset className="schema-array">
        <legend>{label}</legend>
        {items.map((item, index) => (
          <div key={index} className="schema-array-item">
            <SchemaFields field={field.item} draft={item} path={`${path}[${index}]`} onChange={(next) => onChange(items.map((old, at) => (at === index ? next : old)))} />
            <button type="button" className="secondary" onClick={() => onChange(items.filter((_, at) => at !== index))}>
              Remove {`${path}[${index}]`}
            </button>
          </div>
        ))}
        <button type="button" className="secondary" onClick={() => onChange([...items, emptyDraft(field.item)])}>
          Add to {label}
        </button>
      </fieldset>
    );
  }
  const hint = field.description ? <span className="hint"> {field.description}</span> : null;
  if (field.kind === 'boolean') {
    return (
      <label className="schema-field">
        <input type="checkbox" checked={draft === true} onChange={(event) => onChange(event.target.checked)} /> {label}
        {hint}
      </label>
    );
  }
  if (field.kind === 'enum') {
    return (
      <label className="schema-field">
        {label}{' '}
        <select value={typeof draft === 'string' ? draft : ''} onChange={(event) => onChange(event.target.value)}>
          <option value="">(default)</option>
          {field.options.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
        {hint}
      </label>
    );
  }
  return (
    <label className="schema-field">
      {label}{' '}
      {field.kind === 'json' ? (
        <textarea value={typeof draft === 'string' ? draft : ''} onChange={(event) => onChange(event.target.value)} placeholder="JSON" rows={3} />
      ) : (
        <input type="text" inputMode={field.kind === 'string' ? 'text' : 'decimal'} value={typeof draft === 'string' ? draft : ''} onChange={(event) => onChange(event.target.value)} />
      )}
      {hint}
    </label>
  );
}
