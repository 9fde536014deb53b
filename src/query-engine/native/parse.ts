import { ParameterError } from '../parameters/errors';

/**
 * The structure of a native query's text: plain SQL, `{{tag}}` references and `[[ optional clauses ]]`.
 * Tags are recognised everywhere, string literals and comments included (as Metabase does).
 */
export type TagRef =
  | { kind: 'variable'; name: string }
  | { kind: 'card'; name: string; cardId: number }
  | { kind: 'snippet'; name: string; snippetName: string };

export type Piece = { kind: 'text'; text: string } | { kind: 'tag'; ref: TagRef };
export type Segment = Piece | { kind: 'optional'; pieces: Piece[] };

const VARIABLE_RE = /^[\p{L}\p{N}_.-]+$/u;
const CARD_RE = /^#(\d+)(-[\p{L}\p{N}_-]*)?$/u;
const SNIPPET_RE = /^snippet:\s*(.*\S)\s*$/s;

/** `x`, `#12-orders`, `snippet: Active users` (the text between the braces, trimmed). */
export function parseTagName(inner: string): TagRef {
  const name = inner.trim();
  if (!name) throw new ParameterError('Invalid query: empty template tag {{ }}');
  const snippet = SNIPPET_RE.exec(name);
  if (snippet) return { kind: 'snippet', name: `snippet: ${snippet[1]}`, snippetName: snippet[1] };
  const card = CARD_RE.exec(name);
  if (card) {
    const cardId = Number(card[1]);
    if (!Number.isSafeInteger(cardId) || cardId <= 0) throw new ParameterError(`Invalid card reference {{${name}}}`);
    return { kind: 'card', name, cardId };
  }
  if (!VARIABLE_RE.test(name)) throw new ParameterError(`Invalid template tag name {{${name}}}: use letters, digits, "_", "." or "-"`);
  return { kind: 'variable', name };
}

/** Splits the text. Unclosed `{{`/`[[` and nested `[[` are ParameterErrors; a stray `]]` or `}}` is plain SQL. */
export function parseNativeQuery(query: string): Segment[] {
  const segments: Segment[] = [];
  let optional: Piece[] | null = null;
  let text = '';
  const flush = () => {
    if (!text) return;
    (optional ?? segments).push({ kind: 'text', text });
    text = '';
  };
  let i = 0;
  while (i < query.length) {
    const two = query.startsWith('{{', i) ? '{{' : query.startsWith('[[', i) ? '[[' : query.startsWith(']]', i) ? ']]' : null;
    if (two === '{{') {
      const close = query.indexOf('}}', i + 2);
      if (close < 0) throw new ParameterError(`Invalid query: "{{" at position ${i} has no matching "}}"`);
      const inner = query.slice(i + 2, close);
      if (inner.includes('{{')) throw new ParameterError(`Invalid query: "{{" at position ${i} has no matching "}}"`);
      flush();
      (optional ?? segments).push({ kind: 'tag', ref: parseTagName(inner) });
      i = close + 2;
    } else if (two === '[[') {
      if (optional) throw new ParameterError(`Invalid query: optional clauses cannot be nested ("[[" at position ${i} is inside another "[[ ... ]]")`);
      flush();
      optional = [];
      i += 2;
    } else if (two === ']]' && optional) {
      flush();
      segments.push({ kind: 'optional', pieces: optional });
      optional = null;
      i += 2;
    } else {
      text += query[i];
      i += 1;
    }
  }
  if (optional) throw new ParameterError('Invalid query: "[[" has no matching "]]"');
  flush();
  return segments;
}

export interface TagReference {
  name: string;
  kind: TagRef['kind'];
  cardId?: number;
  snippetName?: string;
  /** True when every occurrence is inside an optional clause. */
  optional: boolean;
}

/** The distinct tags a query text refers to, in order of first appearance (snippets are not expanded). */
export function referencedTags(query: string): TagReference[] {
  const found = new Map<string, TagReference>();
  const note = (ref: TagRef, optional: boolean) => {
    const seen = found.get(ref.name);
    if (seen) {
      seen.optional = seen.optional && optional;
      return;
    }
    const r: TagReference = { name: ref.name, kind: ref.kind, optional };
    if (ref.kind === 'card') r.cardId = ref.cardId;
    if (ref.kind === 'snippet') r.snippetName = ref.snippetName;
    found.set(ref.name, r);
  };
  for (const s of parseNativeQuery(query)) {
    if (s.kind === 'tag') note(s.ref, false);
    else if (s.kind === 'optional') for (const p of s.pieces) if (p.kind === 'tag') note(p.ref, true);
  }
  return [...found.values()];
}
