/**
 * Writes the Graph JSON of every committed trace fixture (lib/graph/__fixtures__/*.otlp.json,
 * traces/*.json and the dialects' fixtures, golden-sources.ts) next to this script, as the golden files that goldens.test.ts compares
 * byte for byte. Regenerate only when a change of the graph is intended, and say why in the
 * commit:
 *
 *   node --import tsx lib/graph/__goldens__/make-goldens.ts
 */
import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { goldenSources, goldenText } from './golden-sources';

const here = path.dirname(fileURLToPath(import.meta.url));
for (const source of goldenSources()) writeFileSync(path.join(here, source.golden), await goldenText(source.file));
const written = readdirSync(here).filter((file) => file.endsWith('.graph.json')).length;
console.log(`${written} golden Graph JSON files in ${path.relative(process.cwd(), here)}`);
