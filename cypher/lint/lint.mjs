// Lint Cypher with Neo4j's own parser and semantic analysis (@neo4j-cypher/language-support).
//
//   node lint.mjs                 every cypher/*.cypher and cypher/console/*.cypher file
//                                 (includes expanded, templates filled with sample names)
//   node lint.mjs FILE...         the given .cypher files
//   node lint.mjs --stdin         also a JSON array read from stdin:
//                                 [{"name": "...", "text": "...", "params": ["group_id", ...]}]
//   node lint.mjs --dump          print the statements as JSON instead of linting them
//
// A line "// include: NAME" or "// include: NAME(var)" is replaced by the body of
// cypher/fragments/NAME.cypher, as the Python loader (temporal_graph/core/stores/statements.py)
// does; tests/test_cypher_lint.py checks that both expand every file to the same text.
//
// Each statement is linted as Cypher 5 and as Cypher 25. Parameters are declared from the
// file's "// params:" header (or the "params" field), so an undeclared parameter is an error
// rather than noise. Exit code 1 on any error; warnings are printed but do not fail.
import { readFileSync, readdirSync, writeSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lintCypherQuery } from '@neo4j-cypher/language-support';

const HERE = dirname(fileURLToPath(import.meta.url));
const CYPHER_DIR = resolve(HERE, '..');
const FRAGMENT_DIR = join(CYPHER_DIR, 'fragments');
const FOLDERS = ['', 'console'];
const INCLUDE = /^\s*\/\/\s*include:\s*([a-z][a-z0-9_]*)(?:\(([A-Za-z_]\w*)\))?\s*$/;
const VERSIONS = ['CYPHER 5', 'CYPHER 25'];
// Must match SAMPLE_IDENTIFIERS in temporal_graph/core/stores/statements.py.
const SAMPLES = { rel: 'LIVES_IN', label: 'Person', types: 'LIVES_IN|WORKS_AT' };
const ERROR = 1;
const WARNING = 2;

function header(text, key) {
  for (const line of text.split('\n')) {
    const stripped = line.trim();
    if (!stripped.startsWith('//')) break;
    const body = stripped.slice(2).trim();
    if (body.toLowerCase().startsWith(key + ':')) return body.slice(key.length + 1).trim();
  }
  return null;
}

function names(value) {
  if (!value) return [];
  return value.split(',').map((p) => p.trim().replace(/^\$/, '')).filter(Boolean);
}

function fragmentBody(name, within) {
  if (within.includes(name)) throw new Error(`fragment include cycle: ${[...within, name].join(' -> ')}`);
  const text = readFileSync(join(FRAGMENT_DIR, `${name}.cypher`), 'utf8');
  const lines = text.split(/(?<=\n)/);
  let head = 0;
  while (head < lines.length && !INCLUDE.test(lines[head])
         && (lines[head].trim().startsWith('//') || !lines[head].trim())) head += 1;
  const body = expandIncludes(lines.slice(head).join(''), [...within, name]);
  return { body: body.endsWith('\n') ? body : body + '\n', variable: header(text, 'variable') };
}

function expandIncludes(text, within = []) {
  return text.split(/(?<=\n)/).map((line) => {
    const found = INCLUDE.exec(line);
    if (!found) return line;
    const [, name, rename] = found;
    let { body, variable } = fragmentBody(name, within);
    if (rename) {
      if (!variable) throw new Error(`fragment ${name} declares no variable to rename`);
      const escaped = variable.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      body = body.replace(new RegExp(`(?<![\\w$.])${escaped}(?=\\.)`, 'g'), rename);
    }
    return body;
  }).join('');
}

// A block between "// each type of {{types}}, joined by UNION ALL" and "// end each" is written
// once per identifier of the slot ({{type}} standing for it), as the Python loader writes it.
const EACH = /^([ \t]*)\/\/ each (\w+) of \{\{(\w+)\}\}, joined by ([A-Z ]+)\n([\s\S]*?)^[ \t]*\/\/ end each\n/gm;

function fillSamples(text, name) {
  const expanded = text.replace(EACH, (_, indent, variable, slot, joint, body) => {
    if (!(slot in SAMPLES)) throw new Error(`${name}: no sample identifier for placeholder {{${slot}}}`);
    return SAMPLES[slot].split('|').map((item) => body.split(`{{${variable}}}`).join(item))
      .join(`${indent}${joint}\n`);
  });
  return expanded.replace(/\{\{(\w+)\}\}/g, (_, slot) => {
    if (!(slot in SAMPLES)) throw new Error(`${name}: no sample identifier for placeholder {{${slot}}}`);
    return SAMPLES[slot];
  });
}

function fromFile(path) {
  const source = readFileSync(path, 'utf8');
  const name = relative(CYPHER_DIR, path);
  const text = fillSamples(expandIncludes(source), name);
  return { name, text, params: names(header(source, 'params')) };
}

function lintOne({ name, text, params }) {
  const parameters = Object.fromEntries(params.map((p) => [p, null]));
  // lintCypherQuery only checks that a declared parameter is not `undefined`.
  for (const p of params) parameters[p] = '';
  const problems = [];
  for (const version of VERSIONS) {
    const { diagnostics } = lintCypherQuery(text, { parameters, defaultLanguage: version });
    for (const d of diagnostics) {
      const line = d.range.start.line + 1;
      const col = d.range.start.character + 1;
      problems.push({ version, severity: d.severity, where: `${name}:${line}:${col}`, message: d.message });
    }
  }
  return problems;
}

async function readStdin() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  const raw = Buffer.concat(chunks).toString('utf8').trim();
  if (!raw) return [];
  return JSON.parse(raw).map((s) => ({ name: s.name, text: s.text, params: s.params ?? [] }));
}

const args = process.argv.slice(2);
const useStdin = args.includes('--stdin');
const dump = args.includes('--dump');
const files = args.filter((a) => !a.startsWith('--'));
let statements = [];
if (files.length > 0) {
  statements = files.map((f) => fromFile(resolve(f)));
} else if (!useStdin || args.includes('--all')) {
  statements = FOLDERS.flatMap((folder) =>
    readdirSync(join(CYPHER_DIR, folder))
      .filter((f) => f.endsWith('.cypher'))
      .sort()
      .map((f) => fromFile(join(CYPHER_DIR, folder, f))));
}
if (useStdin) statements = statements.concat(await readStdin());
if (dump) {
  // writeSync: process.exit would cut an output longer than the pipe's buffer
  writeSync(1, JSON.stringify(statements) + '\n');
  process.exit(0);
}

let errors = 0;
let warnings = 0;
for (const statement of statements) {
  for (const p of lintOne(statement)) {
    const kind = p.severity === ERROR ? 'error' : p.severity === WARNING ? 'warning' : 'info';
    if (p.severity === ERROR) errors += 1;
    else if (p.severity === WARNING) warnings += 1;
    console.log(`${kind}: ${p.where} [${p.version}] ${p.message}`);
  }
}
console.log(`linted ${statements.length} statement(s) as ${VERSIONS.join(' and ')}: ${errors} error(s), ${warnings} warning(s)`);
process.exit(errors > 0 ? 1 : 0);
