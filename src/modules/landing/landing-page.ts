import type { LandingInfo } from './landing.service';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** The root page: a few lines of plain HTML, no script, no external asset (the CSP stays strict). */
export function landingPage(info: LandingInfo): string {
  const setup = info.next_step
    ? `<p class="todo"><strong>Setup is not done yet.</strong> Next step: <code>${info.next_step.method} ${info.next_step.path}</code></p>
<p>${esc(info.next_step.how)}</p>`
    : '<p class="done">Setup is done: sign in with <code>POST /api/session</code>.</p>';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(info.name)} ${esc(info.version)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:42rem;margin:3rem auto;padding:0 1rem;line-height:1.5;color:#222}
code{background:#f3f3f3;padding:0 .25rem;border-radius:3px}.todo{color:#8a4b00}.done{color:#1d6b2b}</style>
</head>
<body>
<h1>${esc(info.name)} <small>${esc(info.version)}</small></h1>
<p>${esc(info.description)}.</p>
${setup}
<ul>
<li>API documentation: <a href="${info.links.api_docs}">${info.links.api_docs}</a> (OpenAPI: <a href="${info.links.openapi}">${info.links.openapi}</a>)</li>
<li>Health check: <a href="${info.links.health}">${info.links.health}</a></li>
</ul>
</body>
</html>
`;
}
