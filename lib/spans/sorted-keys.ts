/**
 * An object's own enumerable keys in the order `Object.keys(object).sort()` gives them (UTF-16
 * code units; keys are unique, so any sort agrees). Few keys — every object of a recorded
 * message — are sorted in place by insertion: `sort()` allocates a work area on every call,
 * and the graph build sorts the keys of every message part it hashes or compares
 * (docs/performance.md, "Graph build").
 */
export function sortedKeys(object: object): string[] {
  const keys = Object.keys(object);
  if (keys.length > 16) return keys.sort();
  for (let index = 1; index < keys.length; index++) {
    const key = keys[index];
    let at = index - 1;
    while (at >= 0 && keys[at] > key) {
      keys[at + 1] = keys[at];
      at--;
    }
    keys[at + 1] = key;
  }
  return keys;
}
