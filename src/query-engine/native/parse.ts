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

/** `x`, `#12-orders`, `snippet: Active users` (the text between the braces, trimmed). */
export function parseTagName(inner: string): TagRef {
  const name = inner.trim();
  if (!name) throw new ParameterError('Invalid query: empty template tag {{ }}');
  const snippetName = name.startsWith('snippet:') ? name.slice('snippet:'.length).trim() : '';
  if (snippetName) return { kind: 'snippet', name: `snippet: ${snippetName}`, snippetName };
  const card = CARD_RE.exec(name);
  if (card) {
    const cardId = Number(card[1]);
    if (!Number.isSafeInteger(cardId) || cardId <= 0) throw new ParameterError(`Invalid card reference {{${name}}}`);
    return { kind: 'card', name, cardId };
  }
  if (!VARIABLE_RE.test(name)) throw new ParameterError(`Invalid template tag name {{${name}}}: use letters, digits, "_", "." or "-"`);
  return { kind: 'variable', name };
}

/** A `{{snippet: name}}` tag in a text: where it starts, its length, and the text between the braces. */
export interface SnippetTagMatch {
  index: number;
  length: number;
  inner: string;
}

/**
 * The snippet tags of a text, in order: `{{`, optional whitespace, `snippet:`, then anything without braces up to
 * the first `}}`. One pass (no regular expression that could backtrack on user SQL): the next `}}` and the next
 * brace are looked up once and reused until passed.
 */
export function findSnippetTags(text: string): SnippetTagMatch[] {
  const found: SnippetTagMatch[] = [];
  let close = -1;
  let brace = -1;
  let i = text.indexOf('{{');
  while (i >= 0) {
    const from = i + 2;
    if (close < from) close = text.indexOf('}}', from);
    if (close < 0) break; // no `}}` after this point: no more tags
    if (brace < from) brace = nextBrace(text, from);
    // A tag holds no brace before its `}}`: the first brace after `{{` must be where that `}}` starts.
    if (brace === close) {
      const inner = text.slice(from, close);
      if (inner.trimStart().startsWith('snippet:')) {
        found.push({ index: i, length: close + 2 - i, inner });
        i = text.indexOf('{{', close + 2);
        continue;
      }
    }
    i = text.indexOf('{{', i + 1);
  }
  return found;
}

function nextBrace(text: string, from: number): number {
  for (let k = from; k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (c === 123 || c === 125) return k; // `{` or `}`
  }
  return -1;
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
      if (optional)
        throw new ParameterError(`Invalid query: optional clauses cannot be nested ("[[" at position ${i} is inside another "[[ ... ]]")`);
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
