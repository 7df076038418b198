/**
 * A 64-bit hash built while walking a value, as 16 hex characters: two independent 32-bit
 * multiply-xorshift lanes (cyrb53's mixing, both lanes kept). Pure JavaScript because the graph
 * is also built in the browser; good enough to tell conversations apart, and every match also
 * compares the tool requests in full.
 */
export class ValueHash {
  private h1 = 0xdeadbeef;
  private h2 = 0x41c6ce57;

  text(text: string): void {
    let { h1, h2 } = this;
    for (let index = 0; index < text.length; index++) {
      const code = text.charCodeAt(index);
      h1 = Math.imul(h1 ^ code, 2654435761);
      h2 = Math.imul(h2 ^ code, 1597334677);
    }
    this.h1 = h1;
    this.h2 = h2;
  }

  /** A value in canonical form: object keys sorted, undefined members left out (as JSON would), every token tagged so no two values feed the same. */
  value(value: unknown): void {
    if (value === null || value === undefined) return this.text('n');
    switch (typeof value) {
      case 'string':
        this.text(`s${value.length}:`);
        return this.text(value);
      case 'number':
      case 'bigint':
        return this.text(`d${String(value)};`);
      case 'boolean':
        return this.text(value ? 't' : 'f');
      case 'object':
        break;
      default:
        return this.text('n');
    }
    if (Array.isArray(value)) {
      this.text('[');
      for (const item of value) this.value(item);
      return this.text(']');
    }
    this.members(value as Record<string, unknown>);
  }

  /** An object's members in key order, optionally without one key. */
  members(object: Record<string, unknown>, skip?: string): void {
    this.text('{');
    for (const key of Object.keys(object).sort()) {
      if (key === skip || object[key] === undefined) continue;
      this.text(`k${key.length}:`);
      this.text(key);
      this.value(object[key]);
    }
    this.text('}');
  }

  digest(): string {
    let { h1, h2 } = this;
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    return (h2 >>> 0).toString(16).padStart(8, '0') + (h1 >>> 0).toString(16).padStart(8, '0');
  }
}
