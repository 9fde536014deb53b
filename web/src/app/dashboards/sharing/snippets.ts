/** What the signing code of a host backend needs: where the server is, what it embeds, the locked values, the look. */
export interface EmbedCode {
  siteUrl: string;
  resource: 'dashboard' | 'question';
  id: number;
  /** The locked parameters' values by slug: the token must carry them. */
  params: Record<string, unknown>;
  /** `#bordered=true&titled=true&theme=night`. */
  hash: string;
}

export type Language = 'node' | 'python' | 'ruby' | 'java' | 'go';

export const LANGUAGES: Array<{ value: Language; label: string }> = [
  { value: 'node', label: 'Node.js' },
  { value: 'python', label: 'Python' },
  { value: 'ruby', label: 'Ruby' },
  { value: 'java', label: 'Java' },
  { value: 'go', label: 'Go' },
];

/** Stands in for the key: the server shows it only once, when it is made (Admin > Embedding > Static embedding). */
export const KEY_PLACEHOLDER = 'YOUR_EMBEDDING_SECRET_KEY';

/** `#bordered=…&titled=…&theme=…` (the light theme is the default and stays out of the URL). */
export function hashOptions(o: { bordered: boolean; titled: boolean; theme: string }): string {
  const q = new URLSearchParams({ bordered: String(o.bordered), titled: String(o.titled) });
  if (o.theme !== 'light') q.set('theme', o.theme);
  return `#${q.toString()}`;
}

const json = (v: unknown, indent = 2) => JSON.stringify(v, null, indent).replace(/\n/g, `\n${' '.repeat(indent)}`);

/** A Ruby double-quoted string: JSON's escapes, and `#` escaped where Ruby would interpolate (`#{`, `#$`, `#@`). */
const rubyString = (v: string) => JSON.stringify(v).replace(/#(?=[{$@])/g, '\\#');

function ruby(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(ruby).join(', ')}]`;
  if (v && typeof v === 'object')
    return `{ ${Object.entries(v)
      .map(([k, x]) => `${rubyString(k)} => ${ruby(x)}`)
      .join(', ')} }`;
  if (typeof v === 'string') return rubyString(v);
  return v === null ? 'nil' : JSON.stringify(v);
}

function python(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(python).join(', ')}]`;
  if (v && typeof v === 'object')
    return `{${Object.entries(v)
      .map(([k, x]) => `${JSON.stringify(k)}: ${python(x)}`)
      .join(', ')}}`;
  if (v === null) return 'None';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  return JSON.stringify(v);
}

function java(v: unknown): string {
  if (Array.isArray(v)) return `List.of(${v.map(java).join(', ')})`;
  if (v && typeof v === 'object') {
    const entries = Object.entries(v);
    // Map.of takes at most ten pairs.
    if (entries.length > 10) return `Map.ofEntries(${entries.map(([k, x]) => `Map.entry(${JSON.stringify(k)}, ${java(x)})`).join(', ')})`;
    return `Map.of(${entries.map(([k, x]) => `${JSON.stringify(k)}, ${java(x)}`).join(', ')})`;
  }
  // A whole number beyond an int is a long literal.
  if (typeof v === 'number' && Number.isInteger(v) && Math.abs(v) > 2147483647) return `${v}L`;
  return JSON.stringify(v);
}

function go(v: unknown): string {
  if (Array.isArray(v)) return `[]any{${v.map(go).join(', ')}}`;
  if (v && typeof v === 'object')
    return `map[string]any{${Object.entries(v)
      .map(([k, x]) => `${JSON.stringify(k)}: ${go(x)}`)
      .join(', ')}}`;
  return v === null ? 'nil' : JSON.stringify(v);
}

/** The code a host backend runs to sign the embed token (HS256 with the key, ten minutes) and build the iframe's URL. */
export function signingCode(lang: Language, c: EmbedCode): string {
  const url = `/embed/${c.resource}/`;
  switch (lang) {
    case 'node':
      return `// npm install jsonwebtoken
const jwt = require("jsonwebtoken");

const SITE_URL = ${JSON.stringify(c.siteUrl)};
const SECRET_KEY = process.env.EMBEDDING_SECRET_KEY; // ${KEY_PLACEHOLDER}

const payload = {
  resource: { ${c.resource}: ${c.id} },
  params: ${json(c.params)},
  exp: Math.round(Date.now() / 1000) + 10 * 60, // 10 minutes
};
const token = jwt.sign(payload, SECRET_KEY);

const iframeUrl = SITE_URL + "${url}" + token + "${c.hash}";`;
    case 'python':
      return `# pip install PyJWT
import os
import time
import jwt

SITE_URL = ${JSON.stringify(c.siteUrl)}
SECRET_KEY = os.environ["EMBEDDING_SECRET_KEY"]  # ${KEY_PLACEHOLDER}

payload = {
    "resource": {"${c.resource}": ${c.id}},
    "params": ${python(c.params)},
    "exp": round(time.time()) + 10 * 60,  # 10 minutes
}
token = jwt.encode(payload, SECRET_KEY, algorithm="HS256")

iframe_url = SITE_URL + "${url}" + token + "${c.hash}"`;
    case 'ruby':
      return `# gem install jwt
require 'jwt'

SITE_URL = ${rubyString(c.siteUrl)}
SECRET_KEY = ENV.fetch('EMBEDDING_SECRET_KEY') # ${KEY_PLACEHOLDER}

payload = {
  :resource => { :${c.resource} => ${c.id} },
  :params => ${ruby(c.params)},
  :exp => Time.now.to_i + (60 * 10) # 10 minutes
}
token = JWT.encode(payload, SECRET_KEY, 'HS256')

iframe_url = SITE_URL + "${url}" + token + "${c.hash}"`;
    case 'java':
      return `// io.jsonwebtoken:jjwt-api, jjwt-impl and jjwt-jackson 0.12
import io.jsonwebtoken.Jwts;
import io.jsonwebtoken.security.Keys;
import java.nio.charset.StandardCharsets;
import java.util.Date;
import java.util.List;
import java.util.Map;

String SITE_URL = ${JSON.stringify(c.siteUrl)};
String SECRET_KEY = System.getenv("EMBEDDING_SECRET_KEY"); // ${KEY_PLACEHOLDER}

String token = Jwts.builder()
    .claim("resource", Map.of("${c.resource}", ${c.id}))
    .claim("params", ${Object.keys(c.params).length ? java(c.params) : 'Map.of()'})
    .expiration(new Date(System.currentTimeMillis() + 10 * 60 * 1000)) // 10 minutes
    .signWith(Keys.hmacShaKeyFor(SECRET_KEY.getBytes(StandardCharsets.UTF_8)), Jwts.SIG.HS256)
    .compact();

String iframeUrl = SITE_URL + "${url}" + token + "${c.hash}";`;
    case 'go':
      return `// go get github.com/golang-jwt/jwt/v5
import (
	"os"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

const siteURL = ${JSON.stringify(c.siteUrl)}

func embedURL() (string, error) {
	secretKey := os.Getenv("EMBEDDING_SECRET_KEY") // ${KEY_PLACEHOLDER}
	claims := jwt.MapClaims{
		"resource": map[string]int{"${c.resource}": ${c.id}},
		"params":   ${go(c.params)},
		"exp":      time.Now().Add(10 * time.Minute).Unix(),
	}
	token, err := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString([]byte(secretKey))
	if err != nil {
		return "", err
	}
	return siteURL + "${url}" + token + "${c.hash}", nil
}`;
  }
}

/** The iframe the host's page writes, with the URL its backend signed. */
export function iframeCode(resource: 'dashboard' | 'question'): string {
  return `<iframe
  src="{{iframeUrl}}"
  title="Embedded ${resource}"
  frameborder="0"
  width="800"
  height="600"
  allowtransparency
></iframe>`;
}

/** The React code of the modular embedding SDK (sdk/README.md): its provider, auth config and dashboard component. */
export function sdkCode(siteUrl: string, kind: 'dashboard' | 'question', id: number, interactive: boolean): string {
  const noun = kind === 'dashboard' ? 'Dashboard' : 'Question';
  const component = `${interactive ? 'Interactive' : 'Static'}${noun}`;
  const props = kind === 'dashboard' ? `dashboardId={${id}} withTitle withDownloads` : `questionId={${id}}`;
  return `// npm install @analytics-server/embedding-sdk
import { AnalyticsProvider, defineAnalyticsAuthConfig, ${component} } from '@analytics-server/embedding-sdk';

// Once, outside your components; your backend signs your users in (JWT or SAML SSO).
const authConfig = defineAnalyticsAuthConfig({ analyticsInstanceUrl: ${JSON.stringify(siteUrl)} });

export function Analytics() {
  return (
    <AnalyticsProvider authConfig={authConfig} theme="light">
      <${component} ${props} />
    </AnalyticsProvider>
  );
}`;
}

/** The iframe of a public link. */
export function publicIframe(url: string, title: string): string {
  return `<iframe src="${url}" title=${JSON.stringify(title)} frameborder="0" width="800" height="600" allowtransparency></iframe>`;
}
