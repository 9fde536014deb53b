import type { ReactNode } from 'react';
import type { ParamValues, Parameter } from '../api/types';
import { describe } from '../parameters/values';

/** `{{slug}}` in a text card: the value of the dashboard parameter it names (Metabase's text-card variables). */
function substitute(text: string, parameters: Parameter[], values: ParamValues): string {
  return text.replace(/\{\{\s*([\w-]+)\s*\}\}/g, (_, slug: string) => {
    const p = parameters.find((x) => x.slug === slug);
    return p ? describe(values[p.id]) : '';
  });
}

/** Inline markdown: **bold**, *italic*, `code`, [links](https://...) (http(s) and mailto only). No HTML is ever injected. */
function inline(text: string, key: string): ReactNode[] {
  const out: ReactNode[] = [];
  const re = /(\*\*[^*]+\*\*|\*[^*]+\*|`[^`]+`|\[[^\]]+\]\([^)\s]+\))/g;
  let last = 0;
  let m: RegExpExecArray | null;
  let i = 0;
  while ((m = re.exec(text))) {
    if (m.index > last) out.push(text.slice(last, m.index));
    const t = m[0];
    const k = `${key}-${i++}`;
    if (t.startsWith('**')) out.push(<strong key={k}>{t.slice(2, -2)}</strong>);
    else if (t.startsWith('`')) out.push(<code key={k}>{t.slice(1, -1)}</code>);
    else if (t.startsWith('[')) {
      const [, label, href] = /^\[([^\]]+)\]\(([^)\s]+)\)$/.exec(t) ?? [];
      out.push(
        /^(https?:|mailto:)/i.test(href ?? '') ? (
          <a key={k} href={href} target="_blank" rel="noreferrer noopener">
            {label}
          </a>
        ) : (
          label
        ),
      );
    } else out.push(<em key={k}>{t.slice(1, -1)}</em>);
    last = m.index + t.length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/** Block markdown: # headings, - lists, paragraphs. */
export function Markdown(props: { text: string }) {
  const blocks = props.text.split(/\n{2,}/);
  return (
    <>
      {blocks.map((block, bi) => {
        const lines = block.split('\n');
        const h = /^(#{1,6})\s+(.*)$/.exec(lines[0]);
        if (h && lines.length === 1) {
          const Tag = `h${Math.min(h[1].length, 6)}` as 'h1';
          return <Tag key={bi}>{inline(h[2], String(bi))}</Tag>;
        }
        if (lines.every((l) => /^\s*[-*]\s+/.test(l))) {
          return (
            <ul key={bi}>
              {lines.map((l, li) => (
                <li key={li}>{inline(l.replace(/^\s*[-*]\s+/, ''), `${bi}-${li}`)}</li>
              ))}
            </ul>
          );
        }
        return (
          <p key={bi}>
            {lines.map((l, li) => (
              <span key={li}>
                {li > 0 && <br />}
                {inline(l, `${bi}-${li}`)}
              </span>
            ))}
          </p>
        );
      })}
    </>
  );
}

/** A text, heading or link card (a dashcard without a question). */
export function TextCard(props: { kind: string; settings: Record<string, unknown>; parameters: Parameter[]; values: ParamValues }) {
  const text = substitute(String(props.settings.text ?? ''), props.parameters, props.values);
  if (props.kind === 'heading') {
    return (
      <div className="text-card heading-card" data-testid="heading-card">
        <h2>{text}</h2>
      </div>
    );
  }
  if (props.kind === 'link') {
    const link = props.settings.link as { url?: string } | undefined;
    const url = link?.url ?? '';
    return (
      <div className="text-card link-card" data-testid="link-card">
        {/^https?:/i.test(url) ? (
          <a href={url} target="_blank" rel="noreferrer noopener">
            {url}
          </a>
        ) : (
          url
        )}
      </div>
    );
  }
  return (
    <div className="text-card" data-testid="text-card">
      <Markdown text={text} />
    </div>
  );
}
